"""The dataset engine: lazy dataset nodes that build ``tf.data`` pipelines.

See :mod:`tfspore.dataset.engine.datasets` for the node model and the contract with ``Model``.
"""
from tfspore.dataset.core import config
from tfspore.dataset.engine.datasets import BatchInfo, Dataset, next_op_seed, zip
from tfspore.dataset.engine._sources import MappableDataset, MappableSource, SourceDataset
from tfspore.dataset.engine import _ops  # noqa: F401  (registers map, batch, ... with Dataset)
from tfspore.dataset.engine.datasets_user_defined import GeneratorDataset, NumpySlicesDataset, PaddedDataset, Schema
from tfspore.dataset.engine.iterators import DictIterator, Iterator, TupleIterator, pipeline_error
from tfspore.dataset.engine.samplers import (BuiltinSampler, DistributedSampler, IterSampler, PKSampler,
                                             RandomSampler, Sampler, SequentialSampler, Shuffle, SubsetRandomSampler,
                                             SubsetSampler, WeightedRandomSampler)
from tfspore.dataset.engine._tf_data import TFDataDataset, from_tf_data
from tfspore.dataset.engine.cache_client import DatasetCache
from tfspore.dataset.engine.datasets_vision import Cifar10Dataset, Cifar100Dataset, ImageFolderDataset, MnistDataset
from tfspore.dataset.engine.datasets_standard_format import TFRecordDataset
from tfspore.dataset.engine.datasets_mindrecord import MindDataset

__all__ = ["config", "Dataset", "SourceDataset", "MappableSource", "MappableDataset", "BatchInfo", "zip",
           "next_op_seed", "GeneratorDataset", "NumpySlicesDataset", "PaddedDataset", "Schema", "Iterator",
           "TupleIterator", "DictIterator", "pipeline_error", "BuiltinSampler", "Sampler", "SequentialSampler",
           "RandomSampler", "DistributedSampler", "SubsetSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "IterSampler", "PKSampler", "Shuffle", "TFDataDataset", "from_tf_data", "DatasetCache",
           "MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "TFRecordDataset"]
__all__.append("MindDataset")
from tfspore.dataset.engine.datasets_text import CLUEDataset  # noqa: E402
__all__.append("CLUEDataset")
from tfspore.dataset.engine.graphdata import GraphData, OutputFormat, SamplingStrategy  # noqa: E402
__all__ += ["GraphData", "OutputFormat", "SamplingStrategy"]
