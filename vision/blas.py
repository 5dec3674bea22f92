"""One BLAS thread for the readers, however numpy came to be imported.

The readers multiply small matrices. More BLAS threads cost more than they save there (and take
cores from the UI), and they also change a product's last digits: with two threads the grid
calibration learnt slightly different numbers and one borderline cell of a test set was declined
instead of read. ``OPENBLAS_NUM_THREADS`` (set in ``vision/__init__``) only works when numpy is
first imported after this package, which a script or test cannot always promise, so the readers
also set the limit at run time through threadpoolctl.
"""

from __future__ import annotations

from threadpoolctl import threadpool_limits

_limited = False


def one_blas_thread() -> None:
    """Limit every loaded BLAS library to one thread, once per process."""
    global _limited
    if not _limited:
        threadpool_limits(limits=1, user_api="blas")
        _limited = True
