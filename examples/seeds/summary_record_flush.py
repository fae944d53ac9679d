"""mindspore.train.summary.SummaryRecord page: the flush example.

Beyond the page, the script flushes after a recorded scalar and checks that the summary file exists.
"""
import os

from mindspore import Tensor
from mindspore.train.summary import SummaryRecord

if __name__ == '__main__':
    with SummaryRecord(log_dir="./summary_dir", file_prefix="xx_", file_suffix="_yy") as summary_record:
        summary_record.flush()
        summary_record.add_value('scalar', 'loss', Tensor(0.5))  # beyond the page
        summary_record.record(3)  # beyond the page
        summary_record.flush()  # beyond the page
    print(os.path.isfile(summary_record.log_dir))  # beyond the page
