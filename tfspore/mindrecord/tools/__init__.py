"""``mindspore.mindrecord.tools``: converters from public dataset formats to MindRecord."""
from tfspore.mindrecord.tools.cifar100_to_mr import Cifar100ToMR
from tfspore.mindrecord.tools.cifar10_to_mr import Cifar10ToMR
from tfspore.mindrecord.tools.csv_to_mr import CsvToMR
from tfspore.mindrecord.tools.imagenet_to_mr import ImageNetToMR
from tfspore.mindrecord.tools.mnist_to_mr import MnistToMR
from tfspore.mindrecord.tools.tfrecord_to_mr import TFRecordToMR

__all__ = ["Cifar10ToMR", "Cifar100ToMR", "CsvToMR", "ImageNetToMR", "MnistToMR", "TFRecordToMR"]
