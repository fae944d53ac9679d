"""``tfspore.nn.wrap``: training wrappers (MindSpore's ``mindspore.nn.wrap``)."""
from tfspore.nn.wrap import cell_wrapper, grad_reducer
from tfspore.nn.wrap.grad_reducer import DistributedGradReducer
from tfspore.nn.wrap.cell_wrapper import (ForwardValueAndGrad, TrainOneStepCell, WithEvalCell, WithGradCell,
                                          WithLossCell)
from tfspore.nn.wrap import loss_scale  # noqa: E402
from tfspore.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,  # noqa: E402
                                        TrainOneStepWithLossScaleCell)

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell", "DistributedGradReducer"]
__all__ += ["TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell"]
from tfspore.nn.wrap.cell_wrapper import (GradAccumulationCell, MicroBatchInterleaved, ParameterUpdate,  # noqa: E402
                                          PipelineCell, VirtualDatasetCellTriple)
__all__ += ["MicroBatchInterleaved", "PipelineCell", "VirtualDatasetCellTriple", "ParameterUpdate",
            "GradAccumulationCell"]
