"""mindspore.train.summary.SummaryRecord page: the close example.

Beyond the page, the script shows that a closed record refuses to record (record returns False).
"""
from mindspore.train.summary import SummaryRecord

if __name__ == '__main__':
    try:
        summary_record = SummaryRecord(log_dir="./summary_dir")
    finally:
        summary_record.close()
    print(summary_record.record(1))  # beyond the page
