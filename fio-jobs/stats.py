# SPDX-License-Identifier: GPL-2.0
"""Statistics of fio-jobs' reports (report.py, meter_report.py); standard
library only.  Tests: test_stats.py (make lint).

    mean(xs), stddev(xs)        sample mean, sample standard deviation (n-1)
    betainc(a, b, x)            regularized incomplete beta function I_x(a, b)
    t_two_sided_p(t, df)        P(|T| >= |t|), Student's t with df degrees of freedom
    t_quantile(df, p)           t with P(|T| >= t) = p (two-sided; p=0.05: t(0.975, df))
    ci95_half(xs)               half width of the 95% CI of the mean
    welch(a, b)                 Welch's t-test: (t, df, p)
    ratio_ci95(a, b)            mean(b)/mean(a) and its 95% CI (lo, hi)
    no_regression(ratio, ci)    the project's no-regression verdict: (met, reasons)
    reps_for_margin(a, b)       repetitions per kernel that would meet it at the ratio
                                and spread of a, b
"""
import functools
import math

# The no-regression margin, a one-sided non-inferiority test: "met" iff the
# lower bound of the 95% CI of patched/vanilla IOPS is >= 1 - DELTA.  Both
# numbers come from the IOPS spread of make compare's guests
# (test_data/compare-iops.txt; README.compare, "The margin"): with MIN_REPS
# repetitions per kernel an unchanged series meets DELTA in every row with
# probability >= 0.95, with one repetition fewer or a whole percent less
# it does not (test_stats.py).  With fewer repetitions a row gets no
# verdict: it could miss the margin without any regression.
DELTA = 0.06
MIN_REPS = 8
MARGIN_WORDS = ("no regression: the patched kernel's IOPS is at least %.0f%% of "
                "vanilla's with 95%% confidence (the 95%% CI's lower bound of "
                "patched/vanilla >= %.2f)" % (100 * (1 - DELTA), 1 - DELTA))


def mean(xs):
    return sum(xs) / len(xs)


def stddev(xs):
    """Sample standard deviation (n-1); None with fewer than 2 values."""
    if len(xs) < 2:
        return None
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def _betacf(a, b, x):
    """Continued fraction for the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        # even step
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        # odd step
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            return h
    raise ArithmeticError("incomplete beta: no convergence")


def betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    # The continued fraction converges fast for x < (a+1)/(a+b+2);
    # otherwise use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a).
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t, df):
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return betainc(df / 2.0, 0.5, df / (df + t * t))


@functools.lru_cache(maxsize=None)
def t_quantile(df, p_two_sided=0.05):
    """t with P(|T| >= t) = p (bisection; p = 0.05 gives t(0.975, df)),
    until the midpoint is one of the ends (no double lies between them:
    what more steps would return)."""
    lo, hi = 0.0, 1e6
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            return mid
        if t_two_sided_p(mid, df) > p_two_sided:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def ci95_half(xs):
    """Half width of the 95% confidence interval of the mean (Student t);
    None with fewer than 2 values."""
    if len(xs) < 2:
        return None
    return t_quantile(len(xs) - 1) * stddev(xs) / math.sqrt(len(xs))


def welch(a, b):
    """Welch's t-test of two samples: returns (t, df, two-sided p), None
    with fewer than 2 values in either.

    t  = (mean_b - mean_a) / sqrt(va/na + vb/nb)
    df = (va/na + vb/nb)^2 / ((va/na)^2/(na-1) + (vb/nb)^2/(nb-1))
         (Welch-Satterthwaite)."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return None
    sa, sb = stddev(a) ** 2 / na, stddev(b) ** 2 / nb
    diff = mean(b) - mean(a)
    if sa + sb == 0.0:
        # No spread at all: equal means are identical, different ones are
        # as significant as it gets.
        return (0.0, float(na + nb - 2), 1.0) if diff == 0 else \
               (math.copysign(math.inf, diff), float(na + nb - 2), 0.0)
    t = diff / math.sqrt(sa + sb)
    df = (sa + sb) ** 2 / (sa ** 2 / (na - 1) + sb ** 2 / (nb - 1))
    return t, df, t_two_sided_p(t, df)


def ratio_ci95(a, b):
    """(mean(b) / mean(a), lo, hi): the ratio and its 95% confidence interval.

    Delta method on the log of the ratio: var = sa^2/(na ma^2) +
    sb^2/(nb mb^2), Welch-Satterthwaite degrees of freedom on those two
    terms, interval ratio * exp(+-t * sqrt(var)).  None with fewer than 2
    values on either side or a mean <= 0."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return None
    ma, mb = mean(a), mean(b)
    if ma <= 0 or mb <= 0:
        return None
    ua = stddev(a) ** 2 / (na * ma * ma)
    ub = stddev(b) ** 2 / (nb * mb * mb)
    r = mb / ma
    if ua + ub == 0.0:
        return r, r, r
    df = (ua + ub) ** 2 / (ua ** 2 / (na - 1) + ub ** 2 / (nb - 1))
    h = t_quantile(df) * math.sqrt(ua + ub)
    return r, r * math.exp(-h), r * math.exp(h)


def no_regression(ratio, ci, delta=DELTA):
    """(met, reasons) of the non-inferiority margin: met iff the lower bound
    of the ratio's 95% CI (lo, hi) is >= 1 - delta.  reasons: what failed,
    ["CI lower bound 0.931 < 0.94"], ["n < 2: no CI"] or ["no ratio"]."""
    if ratio is None:
        return False, ["no ratio"]
    if ci is None:
        return False, ["n < 2: no CI"]
    # a hair of rounding slack, so that a bound of exactly 1 - delta is met
    if ci[0] < 1.0 - delta - 1e-12:
        return False, ["CI lower bound %.3f < %.2f" % (ci[0], 1.0 - delta)]
    return True, []


def verdict(ratio, ci):
    """"met" or "not met (<reasons>)" (no_regression())."""
    ok, why = no_regression(ratio, ci)
    return "met" if ok else "not met (%s)" % "; ".join(why)


def _lower_bound(r, cv2a, cv2b, n):
    """ratio_ci95()'s lower bound with n repetitions per side at ratio r
    and squared coefficients of variation cv2a, cv2b."""
    ua, ub = cv2a / n, cv2b / n
    if ua + ub == 0.0:
        return r
    df = (ua + ub) ** 2 / (ua ** 2 / (n - 1) + ub ** 2 / (n - 1))
    return r * math.exp(-t_quantile(df) * math.sqrt(ua + ub))


def reps_for_margin(a, b, delta=DELTA, max_n=10000):
    """Smallest number of repetitions per kernel whose ratio_ci95() lower
    bound would be >= 1 - delta if the samples kept the ratio of the means
    and the coefficients of variation of a and b; None with fewer than 2
    values or a mean <= 0, when the ratio itself is below 1 - delta (no
    number of repetitions helps) or when more than max_n would be needed."""
    if len(a) < 2 or len(b) < 2 or mean(a) <= 0 or mean(b) <= 0:
        return None
    r = mean(b) / mean(a)
    cv2a, cv2b = (stddev(a) / mean(a)) ** 2, (stddev(b) / mean(b)) ** 2
    floor = 1.0 - delta - 1e-12
    if _lower_bound(r, cv2a, cv2b, max_n) < floor:
        return None
    lo, hi = 1, max_n          # n = 1 has no CI; max_n meets the margin
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _lower_bound(r, cv2a, cv2b, mid) >= floor:
            hi = mid
        else:
            lo = mid
    return hi
