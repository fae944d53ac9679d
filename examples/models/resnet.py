"""ResNet-18 and ResNet-34 as MindSpore's model zoo defines them (``official/cv/ResNet/src/resnet.py``).

The cells, their attribute names and their order are the zoo's, so parameter names match
the zoo's checkpoints: ``conv1.weight``, ``bn1.moving_mean``, ``layer1.0.conv1.weight``,
``layer1.0.bn1d.gamma``, ``layer2.0.down_sample_layer.0.weight``, ``end_point.weight``, ...
The zoo's ``res_base`` variant (what ``resnet18`` and ``resnet34`` build) pads explicitly
(``pad_mode='pad'``) and pads before a valid max pooling, as in PyTorch's ResNet.

Weights are initialised as in the zoo: Kaiming normal (``fan_out``, ReLU gain) for the
convolutions, Kaiming uniform with ``a=sqrt(5)`` for the classifier, zero biases. The source
uses only MindSpore's public API and runs unchanged under MindSpore and tfspore.

Example:
    >>> import numpy as np
    >>> import mindspore
    >>> net = resnet18(class_num=10)
    >>> net(mindspore.Tensor(np.ones((1, 3, 32, 32), np.float32))).shape
    (1, 10)
"""
import math

from mindspore import nn, ops
from mindspore.common.initializer import HeNormal, HeUniform

__all__ = ["ResidualBlockBase", "ResNet", "resnet18", "resnet34"]


def _conv3x3(in_channel, out_channel, stride=1, res_base=False):
    weight = HeNormal(mode="fan_out", nonlinearity="relu")
    if res_base:
        return nn.Conv2d(in_channel, out_channel, kernel_size=3, stride=stride,
                         padding=1, pad_mode='pad', weight_init=weight)
    return nn.Conv2d(in_channel, out_channel, kernel_size=3, stride=stride,
                     padding=0, pad_mode='same', weight_init=weight)


def _conv1x1(in_channel, out_channel, stride=1, res_base=False):
    weight = HeNormal(mode="fan_out", nonlinearity="relu")
    if res_base:
        return nn.Conv2d(in_channel, out_channel, kernel_size=1, stride=stride,
                         padding=0, pad_mode='pad', weight_init=weight)
    return nn.Conv2d(in_channel, out_channel, kernel_size=1, stride=stride,
                     padding=0, pad_mode='same', weight_init=weight)


def _conv7x7(in_channel, out_channel, stride=1, res_base=False):
    weight = HeNormal(mode="fan_out", nonlinearity="relu")
    if res_base:
        return nn.Conv2d(in_channel, out_channel, kernel_size=7, stride=stride,
                         padding=3, pad_mode='pad', weight_init=weight)
    return nn.Conv2d(in_channel, out_channel, kernel_size=7, stride=stride,
                     padding=0, pad_mode='same', weight_init=weight)


def _bn(channel, res_base=False):
    if res_base:
        return nn.BatchNorm2d(channel, eps=1e-5, momentum=0.1,
                              gamma_init=1, beta_init=0, moving_mean_init=0, moving_var_init=1)
    return nn.BatchNorm2d(channel, eps=1e-4, momentum=0.9,
                          gamma_init=1, beta_init=0, moving_mean_init=0, moving_var_init=1)


def _fc(in_channel, out_channel):
    weight = HeUniform(negative_slope=math.sqrt(5))
    return nn.Dense(in_channel, out_channel, has_bias=True, weight_init=weight, bias_init=0)


class ResidualBlockBase(nn.Cell):
    """The basic residual block of ResNet-18/34: two 3x3 convolutions and a shortcut.

    Args:
        in_channel (int): Input channels.
        out_channel (int): Output channels.
        stride (int): Stride of the first convolution. Default: 1.
        res_base (bool): Explicit padding (``pad_mode='pad'``) as in ResNet-18/34. Default: True.

    Inputs:
        - **x** (Tensor) - Feature maps of shape (N, in_channel, H, W).

    Outputs:
        Tensor of shape (N, out_channel, H / stride, W / stride).

    Example:
        >>> block = ResidualBlockBase(64, 128, stride=2)
    """

    def __init__(self, in_channel, out_channel, stride=1, res_base=True):
        super(ResidualBlockBase, self).__init__()
        self.res_base = res_base
        self.conv1 = _conv3x3(in_channel, out_channel, stride=stride, res_base=self.res_base)
        self.bn1d = _bn(out_channel)
        self.conv2 = _conv3x3(out_channel, out_channel, stride=1, res_base=self.res_base)
        self.bn2d = _bn(out_channel)
        self.relu = nn.ReLU()

        self.down_sample = False
        if stride != 1 or in_channel != out_channel:
            self.down_sample = True

        self.down_sample_layer = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv1x1(in_channel, out_channel, stride,
                                                                 res_base=self.res_base),
                                                        _bn(out_channel, res_base)])

    def construct(self, x):
        """Applies the block.

        Args:
            x (Tensor): Feature maps of shape (N, in_channel, H, W).

        Returns:
            Tensor, the block's output.
        """
        identity = x

        out = self.conv1(x)
        out = self.bn1d(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2d(out)

        if self.down_sample:
            identity = self.down_sample_layer(identity)

        out = out + identity
        out = self.relu(out)

        return out


class ResNet(nn.Cell):
    """ResNet: a 7x7 stem, four stages of residual blocks, global average pooling, a Dense head.

    Args:
        block (Cell): The residual block class.
        layer_nums (list): Number of blocks of each of the four stages.
        in_channels (list): Input channels of each stage.
        out_channels (list): Output channels of each stage.
        strides (list): Stride of the first block of each stage.
        num_classes (int): Number of classes.
        res_base (bool): The ResNet-18/34 variant (explicit padding, eps 1e-5 in the stem).
            Default: False.

    Inputs:
        - **x** (Tensor) - Images of shape (N, 3, H, W).

    Outputs:
        Tensor of shape (N, num_classes), the logits.

    Raises:
        ValueError: If the four lists do not all have length 4.

    Example:
        >>> net = ResNet(ResidualBlockBase, [2, 2, 2, 2], [64, 64, 128, 256],
        ...              [64, 128, 256, 512], [1, 2, 2, 2], 10, res_base=True)
    """

    def __init__(self, block, layer_nums, in_channels, out_channels, strides, num_classes,
                 res_base=False):
        super(ResNet, self).__init__()

        if not len(layer_nums) == len(in_channels) == len(out_channels) == 4:
            raise ValueError("the length of layer_num, in_channels, out_channels list must be 4!")
        self.res_base = res_base
        self.conv1 = _conv7x7(3, 64, stride=2, res_base=self.res_base)
        self.bn1 = _bn(64, self.res_base)
        self.relu = ops.ReLU()

        if self.res_base:
            self.pad = nn.Pad(paddings=((0, 0), (0, 0), (1, 1), (1, 1)))
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="valid")
        else:
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")

        self.layer1 = self._make_layer(block, layer_nums[0], in_channel=in_channels[0],
                                       out_channel=out_channels[0], stride=strides[0])
        self.layer2 = self._make_layer(block, layer_nums[1], in_channel=in_channels[1],
                                       out_channel=out_channels[1], stride=strides[1])
        self.layer3 = self._make_layer(block, layer_nums[2], in_channel=in_channels[2],
                                       out_channel=out_channels[2], stride=strides[2])
        self.layer4 = self._make_layer(block, layer_nums[3], in_channel=in_channels[3],
                                       out_channel=out_channels[3], stride=strides[3])

        self.mean = ops.ReduceMean(keep_dims=True)
        self.flatten = nn.Flatten()
        self.end_point = _fc(out_channels[3], num_classes)

    def _make_layer(self, block, layer_num, in_channel, out_channel, stride):
        """Builds one stage: a (possibly strided) block followed by ``layer_num - 1`` blocks.

        Args:
            block (Cell): The residual block class.
            layer_num (int): Number of blocks.
            in_channel (int): Input channels.
            out_channel (int): Output channels.
            stride (int): Stride of the first block.

        Returns:
            SequentialCell, the stage.
        """
        layers = []
        resnet_block = block(in_channel, out_channel, stride=stride, res_base=self.res_base)
        layers.append(resnet_block)
        for _ in range(1, layer_num):
            resnet_block = block(out_channel, out_channel, stride=1, res_base=self.res_base)
            layers.append(resnet_block)
        return nn.SequentialCell(layers)

    def construct(self, x):
        """Computes the logits of a batch of images.

        Args:
            x (Tensor): Images of shape (N, 3, H, W).

        Returns:
            Tensor, the logits of shape (N, num_classes).
        """
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.relu(x)
        if self.res_base:
            x = self.pad(x)
        c1 = self.maxpool(x)

        c2 = self.layer1(c1)
        c3 = self.layer2(c2)
        c4 = self.layer3(c3)
        c5 = self.layer4(c4)

        out = self.mean(c5, (2, 3))
        out = self.flatten(out)
        out = self.end_point(out)

        return out


def resnet18(class_num=10):
    """Builds the zoo's ResNet-18.

    Args:
        class_num (int): Number of classes. Default: 10.

    Returns:
        ResNet, the network.

    Example:
        >>> net = resnet18(10)
    """
    return ResNet(ResidualBlockBase,
                  [2, 2, 2, 2],
                  [64, 64, 128, 256],
                  [64, 128, 256, 512],
                  [1, 2, 2, 2],
                  class_num,
                  res_base=True)


def resnet34(class_num=10):
    """Builds the zoo's ResNet-34.

    Args:
        class_num (int): Number of classes. Default: 10.

    Returns:
        ResNet, the network.

    Example:
        >>> net = resnet34(10)
    """
    return ResNet(ResidualBlockBase,
                  [3, 4, 6, 3],
                  [64, 64, 128, 256],
                  [64, 128, 256, 512],
                  [1, 2, 2, 2],
                  class_num,
                  res_base=True)
