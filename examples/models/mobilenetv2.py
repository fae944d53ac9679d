"""MobileNetV2 as MindSpore's model zoo defines it (``official/cv/MobileNetV2/src/mobilenetV2.py``).

The network is the zoo's combination of a backbone and a head,
``mobilenet_v2(MobileNetV2Backbone(), MobileNetV2Head())``. The combining cell does not
prefix its children's parameter names (``auto_prefix=False``), so parameter names are the
zoo's checkpoint names: ``features.0.features.0.weight`` (the stem convolution),
``features.1.conv.0.features.1.moving_mean`` (an inverted residual block), ...,
``features.18.features.1.beta`` (the last 1x1 ConvBNReLU), ``head.1.weight`` (the classifier);
``parameters_and_names`` still reports the attribute paths (``backbone.features.0...``,
``head.head.1.weight``).

Weights are initialised as in the zoo: convolutions from N(0, 2 / (k * k * out_channels)),
BatchNorm gamma 1 and beta 0, the classifier from N(0, 0.01) with zero bias. The source uses
only MindSpore's public API and runs unchanged under MindSpore and tfspore.

Example:
    >>> import numpy as np
    >>> import mindspore
    >>> net = mobilenet_v2(MobileNetV2Backbone(), MobileNetV2Head(num_classes=10))
    >>> net(mindspore.Tensor(np.ones((1, 3, 32, 32), np.float32))).shape
    (1, 10)
"""
import math

from mindspore import nn, ops
from mindspore.common.initializer import Normal, initializer

__all__ = ["GlobalAvgPooling", "ConvBNReLU", "InvertedResidual", "MobileNetV2Backbone",
           "MobileNetV2Head", "MobileNetV2Combine", "mobilenet_v2"]


def _make_divisible(v, divisor, min_value=None):
    """Rounds ``v`` to the nearest multiple of ``divisor``, never down by more than 10%."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class GlobalAvgPooling(nn.Cell):
    """Global average pooling over the spatial dimensions.

    Inputs:
        - **x** (Tensor) - Feature maps of shape (N, C, H, W).

    Outputs:
        Tensor of shape (N, C).

    Example:
        >>> pool = GlobalAvgPooling()
    """

    def __init__(self):
        super(GlobalAvgPooling, self).__init__()
        self.mean = ops.ReduceMean(keep_dims=False)

    def construct(self, x):
        """Averages ``x`` over its last two dimensions.

        Args:
            x (Tensor): Feature maps of shape (N, C, H, W).

        Returns:
            Tensor of shape (N, C).
        """
        x = self.mean(x, (2, 3))
        return x


class ConvBNReLU(nn.Cell):
    """Convolution (or depthwise convolution), BatchNorm and ReLU6.

    Args:
        in_planes (int): Input channels.
        out_planes (int): Output channels.
        kernel_size (int): Kernel size. Default: 3.
        stride (int): Stride. Default: 1.
        groups (int): 1 for a plain convolution, ``in_planes`` for a depthwise one. Default: 1.

    Inputs:
        - **x** (Tensor) - Feature maps of shape (N, in_planes, H, W).

    Outputs:
        Tensor of shape (N, out_planes, H / stride, W / stride).

    Example:
        >>> block = ConvBNReLU(16, 256, kernel_size=1, stride=1, groups=1)
    """

    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        super(ConvBNReLU, self).__init__()
        padding = (kernel_size - 1) // 2
        in_channels = in_planes
        out_channels = out_planes
        if groups == 1:
            conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode='pad',
                             padding=padding)
        else:
            out_channels = in_planes
            conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode='pad',
                             padding=padding, group=in_channels)
        layers = [conv, nn.BatchNorm2d(out_planes), nn.ReLU6()]
        self.features = nn.SequentialCell(layers)

    def construct(self, x):
        """Applies convolution, BatchNorm and ReLU6.

        Args:
            x (Tensor): Feature maps of shape (N, in_planes, H, W).

        Returns:
            Tensor, the block's output.
        """
        output = self.features(x)
        return output


class InvertedResidual(nn.Cell):
    """The MobileNetV2 block: 1x1 expansion, 3x3 depthwise convolution, linear 1x1 projection.

    Args:
        inp (int): Input channels.
        oup (int): Output channels.
        stride (int): Stride of the depthwise convolution, 1 or 2.
        expand_ratio (int): Expansion factor of the hidden channels.

    Inputs:
        - **x** (Tensor) - Feature maps of shape (N, inp, H, W).

    Outputs:
        Tensor of shape (N, oup, H / stride, W / stride); the input is added back when
        ``stride == 1`` and ``inp == oup``.

    Raises:
        ValueError: If ``stride`` is not 1 or 2.

    Example:
        >>> block = InvertedResidual(16, 24, 2, expand_ratio=6)
    """

    def __init__(self, inp, oup, stride, expand_ratio):
        super(InvertedResidual, self).__init__()
        if stride not in (1, 2):
            raise ValueError(f"For 'InvertedResidual', the 'stride' must be 1 or 2, but got {stride}.")
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup

        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers.extend([
            # depthwise
            ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
            # pointwise, linear
            nn.Conv2d(hidden_dim, oup, kernel_size=1, stride=1, has_bias=False),
            nn.BatchNorm2d(oup),
        ])
        self.conv = nn.SequentialCell(layers)
        self.add = ops.Add()

    def construct(self, x):
        """Applies the block.

        Args:
            x (Tensor): Feature maps of shape (N, inp, H, W).

        Returns:
            Tensor, the block's output.
        """
        identity = x
        x = self.conv(x)
        if self.use_res_connect:
            return self.add(identity, x)
        return x


class MobileNetV2Backbone(nn.Cell):
    """The MobileNetV2 feature extractor.

    Args:
        width_mult (float): Channel multiplier. Default: 1.
        inverted_residual_setting (list): Rows ``[t, c, n, s]`` (expansion, channels, repeats,
            stride) of the inverted residual stages. Default: None, the paper's settings.
        round_nearest (int): Channel counts are rounded to multiples of this. Default: 8.
        input_channel (int): Channels of the stem. Default: 32.
        last_channel (int): Channels of the last 1x1 convolution. Default: 1280.

    Inputs:
        - **x** (Tensor) - Images of shape (N, 3, H, W).

    Outputs:
        Tensor of shape (N, out_channels, H / 32, W / 32).

    Example:
        >>> backbone = MobileNetV2Backbone()
        >>> backbone.out_channels
        1280
    """

    def __init__(self, width_mult=1., inverted_residual_setting=None, round_nearest=8,
                 input_channel=32, last_channel=1280):
        super(MobileNetV2Backbone, self).__init__()
        block = InvertedResidual
        self.cfgs = inverted_residual_setting
        if inverted_residual_setting is None:
            self.cfgs = [
                # t, c, n, s
                [1, 16, 1, 1],
                [6, 24, 2, 2],
                [6, 32, 3, 2],
                [6, 64, 4, 2],
                [6, 96, 3, 1],
                [6, 160, 3, 2],
                [6, 320, 1, 1],
            ]

        input_channel = _make_divisible(input_channel * width_mult, round_nearest)
        self.out_channels = _make_divisible(last_channel * max(1.0, width_mult), round_nearest)
        features = [ConvBNReLU(3, input_channel, stride=2)]
        for t, c, n, s in self.cfgs:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(block(input_channel, output_channel, stride, expand_ratio=t))
                input_channel = output_channel
        features.append(ConvBNReLU(input_channel, self.out_channels, kernel_size=1))
        self.features = nn.SequentialCell(features)
        self._initialize_weights()

    def construct(self, x):
        """Extracts the feature maps.

        Args:
            x (Tensor): Images of shape (N, 3, H, W).

        Returns:
            Tensor, the feature maps.
        """
        x = self.features(x)
        return x

    def _initialize_weights(self):
        """Initialises the convolutions from N(0, 2 / n) and BatchNorm to gamma 1, beta 0."""
        self.init_parameters_data()
        for _, m in self.cells_and_names():
            if isinstance(m, nn.Conv2d):
                n = m.kernel_size[0] * m.kernel_size[1] * m.out_channels
                m.weight.set_data(initializer(Normal(sigma=math.sqrt(2. / n)), m.weight.shape,
                                              m.weight.dtype))
                if m.bias is not None:
                    m.bias.set_data(initializer('zeros', m.bias.shape, m.bias.dtype))
            elif isinstance(m, nn.BatchNorm2d):
                m.gamma.set_data(initializer('ones', m.gamma.shape, m.gamma.dtype))
                m.beta.set_data(initializer('zeros', m.beta.shape, m.beta.dtype))

    @property
    def get_features(self):
        """SequentialCell: the feature layers."""
        return self.features


class MobileNetV2Head(nn.Cell):
    """The MobileNetV2 classifier: global average pooling, optional dropout, a Dense layer.

    Args:
        input_channel (int): Channels of the backbone's output. Default: 1280.
        num_classes (int): Number of classes. Default: 1000.
        has_dropout (bool): Whether to apply dropout (p=0.2) before the Dense layer.
            Default: False.
        activation (str): "Sigmoid", "Softmax" or "None", applied to the logits.
            Default: "None".

    Inputs:
        - **x** (Tensor) - Feature maps of shape (N, input_channel, H, W).

    Outputs:
        Tensor of shape (N, num_classes).

    Example:
        >>> head = MobileNetV2Head(input_channel=1280, num_classes=10)
    """

    def __init__(self, input_channel=1280, num_classes=1000, has_dropout=False, activation="None"):
        super(MobileNetV2Head, self).__init__()
        head = ([GlobalAvgPooling(), nn.Dense(input_channel, num_classes, has_bias=True)]
                if not has_dropout else
                [GlobalAvgPooling(), nn.Dropout(p=0.2),
                 nn.Dense(input_channel, num_classes, has_bias=True)])
        self.head = nn.SequentialCell(head)
        self.need_activation = True
        if activation == "Sigmoid":
            self.activation = nn.Sigmoid()
        elif activation == "Softmax":
            self.activation = nn.Softmax()
        else:
            self.need_activation = False
        self._initialize_weights()

    def construct(self, x):
        """Computes the logits (or probabilities, with an activation).

        Args:
            x (Tensor): Feature maps of shape (N, input_channel, H, W).

        Returns:
            Tensor of shape (N, num_classes).
        """
        x = self.head(x)
        if self.need_activation:
            x = self.activation(x)
        return x

    def _initialize_weights(self):
        """Initialises the Dense layer from N(0, 0.01) with a zero bias."""
        self.init_parameters_data()
        for _, m in self.cells_and_names():
            if isinstance(m, nn.Dense):
                m.weight.set_data(initializer(Normal(sigma=0.01), m.weight.shape, m.weight.dtype))
                if m.bias is not None:
                    m.bias.set_data(initializer('zeros', m.bias.shape, m.bias.dtype))

    @property
    def get_head(self):
        """SequentialCell: the head layers."""
        return self.head


class MobileNetV2Combine(nn.Cell):
    """A backbone followed by a head, keeping the children's own parameter names.

    Args:
        backbone (Cell): The feature extractor.
        head (Cell): The classifier.

    Inputs:
        - **x** (Tensor) - Images of shape (N, 3, H, W).

    Outputs:
        Tensor, the head's output.

    Example:
        >>> net = MobileNetV2Combine(MobileNetV2Backbone(), MobileNetV2Head(num_classes=10))
    """

    def __init__(self, backbone, head):
        super(MobileNetV2Combine, self).__init__(auto_prefix=False)
        self.backbone = backbone
        self.head = head

    def construct(self, x):
        """Runs the backbone, then the head.

        Args:
            x (Tensor): Images of shape (N, 3, H, W).

        Returns:
            Tensor, the head's output.
        """
        x = self.backbone(x)
        x = self.head(x)
        return x


def mobilenet_v2(backbone, head):
    """Combines a MobileNetV2 backbone and head into the zoo's network.

    Args:
        backbone (Cell): A :class:`MobileNetV2Backbone`.
        head (Cell): A :class:`MobileNetV2Head`.

    Returns:
        MobileNetV2Combine, the network.

    Example:
        >>> net = mobilenet_v2(MobileNetV2Backbone(), MobileNetV2Head(num_classes=10))
    """
    return MobileNetV2Combine(backbone, head)
