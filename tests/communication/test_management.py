"""``tfspore.communication`` in one process: MindSpore's signatures, defaults and errors."""
import pytest

import tfspore as ms
from tfspore import communication as comm
from tfspore.communication import management


@pytest.fixture(autouse=True)
def _fresh_state(monkeypatch):
    """Each test starts before init(), with no groups, and leaves the process so."""
    for name in ("RANK_ID", "RANK_SIZE", "LOCAL_RANK", "LOCAL_RANK_SIZE", "TF_CONFIG", "OMPI_COMM_WORLD_RANK",
                 "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"):
        monkeypatch.delenv(name, raising=False)
    saved = (comm.GlobalComm.BACKEND, comm.GlobalComm.WORLD_COMM_GROUP, comm.GlobalComm.INITED)
    yield
    comm.release()
    management._GROUPS.clear()  # pylint: disable=protected-access
    comm.GlobalComm.BACKEND, comm.GlobalComm.WORLD_COMM_GROUP, comm.GlobalComm.INITED = saved


def test_public_names_and_group_names():
    for name in ("init", "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size",
                 "create_group", "destroy_group", "get_world_rank_from_group_rank",
                 "get_group_rank_from_world_rank", "get_process_group_ranks", "get_comm_name", "GlobalComm"):
        assert getattr(comm, name) is getattr(management, name)
    assert (comm.HCCL_WORLD_COMM_GROUP, comm.NCCL_WORLD_COMM_GROUP, comm.MCCL_WORLD_COMM_GROUP) == (
        "hccl_world_group", "nccl_world_group", "mccl_world_group")
    assert comm.GlobalComm.WORLD_COMM_GROUP == "hccl_world_group" and comm.GlobalComm.INITED is False


def test_before_init_the_environment_gives_rank_and_size(monkeypatch):
    assert (comm.get_rank(), comm.get_group_size(), comm.get_local_rank(), comm.get_local_rank_size()) == (0, 1, 0, 1)
    monkeypatch.setenv("RANK_ID", "3")
    monkeypatch.setenv("RANK_SIZE", "8")
    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setenv("LOCAL_RANK_SIZE", "4")
    assert (comm.get_rank(), comm.get_group_size(), comm.get_local_rank(), comm.get_local_rank_size()) == (3, 8, 1, 4)


def test_init_in_a_plain_process_is_rank_0_of_1(monkeypatch):
    monkeypatch.setenv("RANK_SIZE", "8")  # the environment no longer counts once init() joined the (one-process) job
    comm.init()
    assert comm.GlobalComm.INITED is True
    assert (comm.GlobalComm.BACKEND, comm.GlobalComm.WORLD_COMM_GROUP) == ("mccl", "mccl_world_group")
    assert (comm.get_rank(), comm.get_group_size()) == (0, 1)
    assert comm.get_rank(comm.HCCL_WORLD_COMM_GROUP) == 0  # every world-group name means the world
    assert comm.get_process_group_ranks() == [0]
    comm.init("mccl")  # a second call does nothing
    comm.release()
    assert comm.GlobalComm.INITED is False


def test_init_errors():
    with pytest.raises(TypeError, match="For 'init', the argument 'backend_name' must be a string, but got the type "
                                        ": <class 'int'>"):
        comm.init(1)
    with pytest.raises(RuntimeError, match="must be one of 'hccl', 'nccl' and 'mccl', but got 'backend_name' : mpi"):
        comm.init("mpi")
    with pytest.raises(RuntimeError, match="For 'init', the argument 'backend_name' should be 'mccl' to init 'CPU', "
                                           "but got 'hccl'."):
        comm.init("hccl")
    assert comm.GlobalComm.INITED is False


def test_group_argument_must_be_a_string():
    for fn in (comm.get_rank, comm.get_group_size, comm.get_local_rank, comm.get_local_rank_size):
        with pytest.raises(TypeError, match=f"For '{fn.__name__}', the argument 'group' must be type of string, but "
                                            "got 'group' type : <class 'int'>."):
            fn(1)


def test_create_group_bookkeeping_and_errors():
    with pytest.raises(RuntimeError, match="For 'create_group', distributed communication has not been inited"):
        comm.create_group("g", [0])
    comm.init()
    with pytest.raises(TypeError, match="the argument 'rank_ids' must be type of list, but got 'rank_ids' type : "
                                        "<class 'tuple'>"):
        comm.create_group("g", (0,))
    with pytest.raises(ValueError, match="'rank_ids' size should be greater than 1, but got 'rank_ids' size : 0"):
        comm.create_group("g", [])
    with pytest.raises(ValueError, match="List rank_ids in Group g has duplicate data!"):
        comm.create_group("g", [0, 0])
    with pytest.raises(ValueError, match=r"must hold world ranks in \[0, 1\), but got \[0, 1\]"):
        comm.create_group("g", [0, 1])
    comm.create_group("g", [0])
    comm.create_group("g", [0])  # the same ranks again: accepted
    with pytest.raises(ValueError, match=r"The group g has been created, the rank_list is \[0\]"):
        comm.create_group("g", [1])
    assert (comm.get_rank("g"), comm.get_group_size("g"), comm.get_process_group_ranks("g")) == (0, 1, [0])
    assert comm.get_world_rank_from_group_rank("g", 0) == 0 and comm.get_group_rank_from_world_rank(0, "g") == 0
    with pytest.raises(ValueError, match=r"'group_rank_id' must be in \[0, 1\), but got 1"):
        comm.get_world_rank_from_group_rank("g", 1)
    with pytest.raises(ValueError, match="the group 'nope' does not exist"):
        comm.get_group_size("nope")
    # a group of every rank works with the collectives (it is the world group)
    x = ms.Tensor([1.0, 2.0])
    assert ms.ops.AllReduce(group="g")(x).asnumpy().tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="The world_group does not support destruction."):
        comm.destroy_group(comm.GlobalComm.WORLD_COMM_GROUP)
    comm.destroy_group("g")
    with pytest.raises(ValueError, match="the group 'g' does not exist"):
        comm.get_rank("g")
