"""LeNet5 as MindSpore's model zoo defines it (``official/cv/LeNet/src/lenet.py``).

The source uses only MindSpore's public API, so it runs unchanged under MindSpore and
under tfspore (``import tfspore as mindspore`` or :func:`tfspore.compat.alias_mindspore`).
Parameter names (``conv1.weight``, ``fc1.bias``, ...) are the zoo's, so the zoo's
checkpoints load into it.

Example:
    >>> import numpy as np
    >>> import mindspore
    >>> net = LeNet5(num_class=10)
    >>> net(mindspore.Tensor(np.ones((1, 1, 32, 32), np.float32))).shape
    (1, 10)
"""
from mindspore import nn

__all__ = ["LeNet5", "lenet5"]


class LeNet5(nn.Cell):
    """LeNet5: two valid-padded 5x5 convolutions with max pooling, then three Dense layers.

    Args:
        num_class (int): Number of classes. Default: 10.
        num_channel (int): Number of input channels. Default: 1.
        include_top (bool): Whether to add the classification head. Default: True.

    Inputs:
        - **x** (Tensor) - Images of shape (N, num_channel, 32, 32), float32.

    Outputs:
        Tensor of shape (N, num_class): the logits; (N, 16, 5, 5) feature maps when
        ``include_top`` is False.

    Example:
        >>> net = LeNet5(num_class=10, num_channel=1)
        >>> [name for name, _ in net.parameters_and_names()][:2]
        ['conv1.weight', 'conv2.weight']
    """

    def __init__(self, num_class=10, num_channel=1, include_top=True):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if self.include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)

    def construct(self, x):
        """Computes the logits of a batch of images.

        Args:
            x (Tensor): Images of shape (N, C, 32, 32).

        Returns:
            Tensor, the logits of shape (N, num_class), or the (N, 16, 5, 5) feature maps
            without the head.
        """
        x = self.conv1(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.conv2(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x


def lenet5(num_class=10, num_channel=1):
    """Builds the zoo's LeNet5.

    Args:
        num_class (int): Number of classes. Default: 10.
        num_channel (int): Number of input channels. Default: 1.

    Returns:
        LeNet5, the network.

    Example:
        >>> net = lenet5(num_class=10)
    """
    return LeNet5(num_class=num_class, num_channel=num_channel)
