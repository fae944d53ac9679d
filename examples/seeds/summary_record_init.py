"""mindspore.train.summary.SummaryRecord page: the constructor example, closing with `with` and with
try/finally.

Beyond the page, the script prints what the directory holds afterwards (nothing: the summary file
is created at the first write) and the number of open records.
"""
import os

from mindspore.train.summary import SummaryRecord

if __name__ == '__main__':
    # use in with statement to auto close
    with SummaryRecord(log_dir="./summary_dir") as summary_record:
        pass

    # use in try .. finally .. to ensure closing
    try:
        summary_record = SummaryRecord(log_dir="./summary_dir")
    finally:
        summary_record.close()
    print(sorted(os.listdir("./summary_dir")))  # beyond the page
    print(SummaryRecord.count)  # beyond the page
