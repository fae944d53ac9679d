"""mindspore.train.summary.SummaryRecord page: the add_value example.

Beyond the page, the script records the value at step 1 and prints the summary file's name parts
and the files in the directory (one summary file, named with the prefix and suffix).
"""
import os

from mindspore import Tensor
from mindspore.train.summary import SummaryRecord

if __name__ == '__main__':
    with SummaryRecord(log_dir="./summary_dir", file_prefix="xx_", file_suffix="_yy") as summary_record:
        summary_record.add_value('scalar', 'loss', Tensor(0.1))
        print(summary_record.record(1))  # beyond the page
    names = os.listdir("./summary_dir")  # beyond the page
    print(len(names), [(n.startswith("xx_.out."), ".summary." in n, n.endswith("_yy")) for n in names])
