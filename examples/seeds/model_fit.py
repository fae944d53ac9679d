"""mindspore.train.Model.fit page: LeNet5 trained for 2 epochs, validated after each.

The page's ``LeNet5()`` and ``create_dataset("train")`` / ``create_dataset("test")`` are the docs'
lenet.py and mnist.py from ``_fixtures.py`` (in file order, no shuffle) on a small MNIST directory
(``MNIST_Data/train``: 64 images, ``MNIST_Data/test``: 32), with fixed weights. A callback prints
the validation results that ``fit`` hands to ``epoch_end`` (``cb_params.eval_results``), and the
script evaluates once more after training (beyond the page).
"""
# parity: env=msds data=mnist modes=pynative,graph
from mindspore import nn
from mindspore.train import Model, Callback
from _fixtures import create_dataset, LeNet5, fix_weights, set_mode


def as_floats(results):
    """The metric values as Python floats (numpy 2 would print np.float64(...))."""
    return {name: float(value) for name, value in results.items()}


class PrintEval(Callback):
    """Prints the validation results of each epoch (beyond the page)."""

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        print("epoch", cb_params.cur_epoch_num, "eval:", as_floats(cb_params.eval_results))


if __name__ == "__main__":
    set_mode()
    train_dataset = create_dataset("./MNIST_Data/train")
    valid_dataset = create_dataset("./MNIST_Data/test")
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, loss_fn=loss, optimizer=optim, metrics={"accuracy"})
    model.fit(2, train_dataset, valid_dataset, callbacks=[PrintEval()])
    print(as_floats(model.eval(valid_dataset)))  # beyond the page
