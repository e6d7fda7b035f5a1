"""Statistics of fio-jobs' reports (report.py, meter_report.py); standard
library only.  Tests: test_stats.py (run by report.py --selftest, make lint).

    mean(xs), stddev(xs)        sample mean, sample standard deviation (n-1)
    betainc(a, b, x)            regularized incomplete beta function I_x(a, b)
    t_two_sided_p(t, df)        P(|T| >= |t|), Student's t with df degrees of freedom
    t_quantile(df, p)           t with P(|T| >= t) = p (two-sided; p=0.05: t(0.975, df))
    ci95_half(xs)               half width of the 95% CI of the mean
    welch(a, b)                 Welch's t-test: (t, df, p)
    ratio_ci95(a, b)            mean(b)/mean(a) and its 95% CI (lo, hi)
    no_regression(ratio, ci)    the project's no-regression verdict: (met, reasons)
    reps_for_ci(a, b)           repetitions per kernel for that CI at the spread of a, b
"""
import math

# The declared no-regression margin (fio-jobs/README "On a real server"):
# patched/vanilla >= MIN_RATIO and its 95% CI within +-CI_REL of the ratio.
MIN_RATIO = 0.98
CI_REL = 0.05


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


def t_quantile(df, p_two_sided=0.05):
    """t with P(|T| >= t) = p (bisection; p = 0.05 gives t(0.975, df))."""
    lo, hi = 0.0, 1e6
    for _ in range(200):
        mid = (lo + hi) / 2
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


def no_regression(ratio, ci, min_ratio=MIN_RATIO, ci_rel=CI_REL):
    """(met, reasons) of the no-regression margin: met iff ratio >=
    min_ratio and the CI (lo, hi) lies within ratio * (1 -+ ci_rel).
    reasons: what failed, e.g. ["ratio 0.971 < 0.98", "CI -7.2 %/+7.8 %
    wider than +-5 %"]; ["n < 2: no CI"] without a CI."""
    if ratio is None:
        return False, ["no ratio"]
    why = []
    if ratio < min_ratio:
        why.append("ratio %.3f < %.2f" % (ratio, min_ratio))
    if ci is None:
        why.append("n < 2: no CI")
    else:
        lo, hi = ci
        down, up = 1.0 - lo / ratio, hi / ratio - 1.0
        # a hair of rounding slack, so that exactly +-ci_rel is within
        if down > ci_rel + 1e-12 or up > ci_rel + 1e-12:
            why.append("CI -%.1f %%/+%.1f %% wider than +-%.0f %%"
                       % (100 * down, 100 * up, 100 * ci_rel))
    return not why, why


def verdict(ratio, ci):
    """"met" or "not met (<reasons>)" (no_regression())."""
    ok, why = no_regression(ratio, ci)
    return "met" if ok else "not met (%s)" % "; ".join(why)


def _ci_fits(cv2a, cv2b, n, ci_rel):
    """Does the ratio CI fit +-ci_rel with n repetitions per side at the
    squared coefficients of variation cv2a, cv2b?"""
    ua, ub = cv2a / n, cv2b / n
    if ua + ub == 0.0:
        return True
    df = (ua + ub) ** 2 / (ua ** 2 / (n - 1) + ub ** 2 / (n - 1))
    h = t_quantile(df) * math.sqrt(ua + ub)
    return math.exp(h) <= 1 + ci_rel + 1e-12 and math.exp(-h) >= 1 - ci_rel - 1e-12


def reps_for_ci(a, b, ci_rel=CI_REL, max_n=10000):
    """Smallest number of repetitions per kernel whose ratio_ci95() would
    lie within +-ci_rel if the samples kept the coefficients of variation
    of a and b; None with fewer than 2 values or a mean <= 0, or when more
    than max_n would be needed."""
    if len(a) < 2 or len(b) < 2 or mean(a) <= 0 or mean(b) <= 0:
        return None
    cv2a, cv2b = (stddev(a) / mean(a)) ** 2, (stddev(b) / mean(b)) ** 2
    if not _ci_fits(cv2a, cv2b, max_n, ci_rel):
        return None
    lo, hi = 1, max_n          # _ci_fits(lo) false (n = 1 has no CI), hi true
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _ci_fits(cv2a, cv2b, mid, ci_rel):
            hi = mid
        else:
            lo = mid
    return hi
