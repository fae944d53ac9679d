"""mindspore.train.summary.SummaryRecord page: the record example (prints its result).

Beyond the page, the script shows record's argument checks: a float step and a train_network that
is not a Cell raise TypeError.
"""
from mindspore.train.summary import SummaryRecord

if __name__ == '__main__':
    with SummaryRecord(log_dir="./summary_dir", file_prefix="xx_", file_suffix="_yy") as summary_record:
        result = summary_record.record(step=2)
        print(result)
        for kwargs in ({"step": 2.0}, {"step": 2, "train_network": "net"}):  # beyond the page
            try:
                summary_record.record(**kwargs)
            except TypeError:
                print("TypeError")
