"""``tfspore.nn.layer``: the built-in layers (MindSpore's ``mindspore.nn.layer``)."""
from tfspore.nn.layer import activation, basic, container, conv, math, normalization, pooling
from tfspore.nn.layer.activation import *  # noqa: F401,F403
from tfspore.nn.layer.basic import *  # noqa: F401,F403
from tfspore.nn.layer.container import *  # noqa: F401,F403
from tfspore.nn.layer.conv import *  # noqa: F401,F403
from tfspore.nn.layer import embedding, image
from tfspore.nn.layer.embedding import *  # noqa: F401,F403
from tfspore.nn.layer.image import *  # noqa: F401,F403
from tfspore.nn.layer.math import *  # noqa: F401,F403
from tfspore.nn.layer.normalization import *  # noqa: F401,F403
from tfspore.nn.layer.pooling import *  # noqa: F401,F403

__all__ = []
__all__.extend(activation.__all__)
__all__.extend(basic.__all__)
__all__.extend(container.__all__)
__all__.extend(conv.__all__)
__all__.extend(embedding.__all__)
__all__.extend(image.__all__)
__all__.extend(math.__all__)
__all__.extend(normalization.__all__)
__all__.extend(pooling.__all__)
from tfspore.nn.layer import rnn_cells, rnns, transformer  # noqa: E402
from tfspore.nn.layer.rnn_cells import *  # noqa: F401,F403,E402
from tfspore.nn.layer.rnns import *  # noqa: F401,F403,E402
from tfspore.nn.layer.transformer import *  # noqa: F401,F403,E402
__all__.extend(rnn_cells.__all__)
__all__.extend(rnns.__all__)
__all__.extend(transformer.__all__)
from tfspore.nn.layer import clip, combined, sync_batchnorm  # noqa: E402
from tfspore.nn.layer.clip import *  # noqa: F401,F403,E402
from tfspore.nn.layer.combined import *  # noqa: F401,F403,E402
from tfspore.nn.layer.sync_batchnorm import *  # noqa: F401,F403,E402
__all__.extend(clip.__all__)
__all__.extend(combined.__all__)
__all__.extend(sync_batchnorm.__all__)
from tfspore.nn.layer import conv3d_transpose  # noqa: E402
from tfspore.nn.layer.conv3d_transpose import *  # noqa: F401,F403,E402
__all__.extend(conv3d_transpose.__all__)
from tfspore.nn.layer import pooling3d  # noqa: E402
from tfspore.nn.layer.pooling3d import *  # noqa: F401,F403,E402
__all__.extend(pooling3d.__all__)
from tfspore.nn.layer import padding  # noqa: E402
from tfspore.nn.layer.padding import *  # noqa: F401,F403,E402
__all__.extend(padding.__all__)
from tfspore.nn.layer import rearrange  # noqa: E402
from tfspore.nn.layer.rearrange import *  # noqa: F401,F403,E402
__all__.extend(rearrange.__all__)
from tfspore.nn.layer import tensor_cells  # noqa: E402
from tfspore.nn.layer.tensor_cells import *  # noqa: F401,F403,E402
__all__.extend(tensor_cells.__all__)
from tfspore.nn.layer import pooling_extra  # noqa: E402
from tfspore.nn.layer.pooling_extra import *  # noqa: F401,F403,E402
__all__.extend(pooling_extra.__all__)
from tfspore.nn.layer import bidense, timedistributed  # noqa: E402
from tfspore.nn.layer.bidense import *  # noqa: F401,F403,E402
from tfspore.nn.layer.timedistributed import *  # noqa: F401,F403,E402
__all__.extend(bidense.__all__)
__all__.extend(timedistributed.__all__)
