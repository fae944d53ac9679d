"""mindspore.train.summary.SummaryRecord page: the set_mode example.

Beyond the page, the script shows that an unknown mode raises ValueError.
"""
from mindspore.train.summary import SummaryRecord

if __name__ == '__main__':
    with SummaryRecord(log_dir="./summary_dir", file_prefix="xx_", file_suffix="_yy") as summary_record:
        summary_record.set_mode('eval')
        try:  # beyond the page
            summary_record.set_mode('test')
        except ValueError:
            print("ValueError")
