"""A real TensorBoard server on 127.0.0.1 serves what SummaryRecord wrote, through its HTTP data API."""
import json
import threading
import urllib.parse
import urllib.request

import numpy as np
import pytest
from tensorboard import program

import tfspore as ms
from tfspore import Tensor, nn, ops
from tfspore.train import lineage_pb2
from tfspore.train.summary import SummaryRecord


@pytest.fixture
def tensorboard_url():
    """``start(logdir)`` -> the URL of a TensorBoard server (free port, data loaded once); shut down after."""
    servers = []

    def start(logdir):
        tb = program.TensorBoard()
        tb.configure(argv=[None, "--logdir", logdir, "--host", "127.0.0.1", "--port", "0", "--load_fast", "false",
                           "--reload_interval", "0"])
        server = tb._make_server()
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server.get_url()

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _get(url, route, **query):
    with urllib.request.urlopen(url + route + ("?" + urllib.parse.urlencode(query) if query else ""),
                                timeout=30) as reply:
        return json.load(reply)


def test_tensorboard_serves_the_loss_curve(summary_dir, tensorboard_url):
    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
            self.histogram = ops.HistogramSummary()

        def construct(self, x):
            self.histogram("dense.weight", self.dense.weight)
            return self.dense(x)

    net = Net()
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    train = nn.TrainOneStepCell(loss_net, nn.SGD(net.trainable_params(), 0.05))
    x, y = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 1), np.float32))
    losses = []
    with SummaryRecord(summary_dir, network=train) as record:
        lineage = lineage_pb2.TrainLineage()
        lineage.hyper_parameters.learning_rate = 0.05
        lineage.hyper_parameters.optimizer = "SGD"
        record.add_value("train_lineage", "train_lineage", lineage)
        for step in range(1, 4):
            loss = train(x, y)
            losses.append(float(loss.asnumpy()))
            record.add_value("scalar", "loss", loss)
            record.record(step)

    url = tensorboard_url(summary_dir)
    scalars = _get(url, "data/plugin/scalars/scalars", run=".", tag="loss")
    assert [point[1] for point in scalars] == [1, 2, 3]
    np.testing.assert_allclose([point[2] for point in scalars], losses, rtol=1e-6)
    histograms = _get(url, "data/plugin/histograms/histograms", run=".", tag="dense.weight")
    assert [h[1] for h in histograms] == [1, 2, 3]
    assert _get(url, "data/plugin/graphs/info")["."]["run_graph"] is True
    request = urllib.request.Request(url + "data/plugin/hparams/experiment", data=b'{"experimentName": ""}',
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        experiment = json.load(reply)
    hparams = {h["name"]: h for h in experiment["hparamInfos"]}
    assert hparams["optimizer"]["domainDiscrete"] == ["SGD"]
    assert hparams["learning_rate"]["domainInterval"]["minValue"] == 0.05
    assert {"group": ".", "tag": "loss"} in [m["name"] for m in experiment["metricInfos"]]
