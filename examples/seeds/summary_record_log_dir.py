"""mindspore.train.summary.SummaryRecord page: the log_dir property example.

Beyond the page, the script prints that log_dir is the full path of the summary file (in the
real path of the directory, named with the prefix and suffix).
"""
import os

from mindspore.train.summary import SummaryRecord

if __name__ == '__main__':
    with SummaryRecord(log_dir="./summary_dir", file_prefix="xx_", file_suffix="_yy") as summary_record:
        log_dir = summary_record.log_dir
    print(os.path.dirname(log_dir) == os.path.realpath("./summary_dir"))  # beyond the page
    name = os.path.basename(log_dir)  # beyond the page
    print(name.startswith("xx_.out."), ".summary." in name, name.endswith("_yy"))  # beyond the page
