"""Label-free consensus rules: unifiers, combiners, AUROC. Shared by study.py and the checks.

Every rule uses only the members' training scores on the set (columns of S, n rows x m members).
"""
import itertools
import math

import numpy as np
from scipy.special import erf, ndtri
from scipy.stats import rankdata


def auroc(scores, y):
    """Mann-Whitney AUROC with mid-ranks; NaN ranks lowest (as bench/corpus.py)."""
    s = np.nan_to_num(np.asarray(scores, float), nan=-np.inf, posinf=np.inf, neginf=-np.inf)
    r = rankdata(s, method="average")
    n1 = int(y.sum())
    n0 = len(y) - n1
    return (r[y == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def _finite(s):
    """Non-finite training scores (never seen so far, guard only): +inf -> max finite, NaN/-inf -> min finite."""
    s = np.asarray(s, float)
    if np.all(np.isfinite(s)):
        return s
    f = s[np.isfinite(s)]
    lo, hi = (f.min(), f.max()) if f.size else (0.0, 0.0)
    return np.where(np.isposinf(s), hi, np.where(np.isfinite(s), s, lo))


# ---------------------------------------------------------------- unifiers: scores -> comparable scale
def u_rank(s):
    """(#{t<s} + 0.5 #{t=s}) / n  =  (mid-rank - 0.5) / n, in (0, 1)."""
    s = _finite(s)
    return (rankdata(s, method="average") - 0.5) / len(s)


def u_gauss(s):
    """Kriegel et al. SDM 2011 eq. 7: max(0, erf((s - mu) / (sigma sqrt 2))), sd with n - 1."""
    s = _finite(s)
    mu, sd = s.mean(), s.std(ddof=1)
    if not sd > 0:
        return np.zeros_like(s)
    return np.maximum(0.0, erf((s - mu) / (sd * math.sqrt(2.0))))


def u_minmax(s):
    s = _finite(s)
    lo, hi = s.min(), s.max()
    return (s - lo) / (hi - lo) if hi > lo else np.zeros_like(s)


def u_robz(s):
    """(s - median) / (1.4826 MAD); MAD = 0 -> mean absolute deviation -> sd -> 0."""
    s = _finite(s)
    med = np.median(s)
    mad = 1.4826 * np.median(np.abs(s - med))
    if not mad > 0:
        mad = 1.2533 * np.mean(np.abs(s - med))
    if not mad > 0:
        return np.zeros_like(s)
    return (s - med) / mad


def u_z(s):
    s = _finite(s)
    sd = s.std(ddof=1)
    return (s - s.mean()) / sd if sd > 0 else np.zeros_like(s)


def u_logrank(s):
    """-log(1 - rank): the exponential score of the percentile (unbounded above, mean 1)."""
    return -np.log1p(-u_rank(s))


def u_probit(s):
    """Phi^-1(rank): normal scores (rank-based inverse normal transform)."""
    return ndtri(u_rank(s))


def _gamma_fit(s):
    """Kriegel et al. 2011 gamma scaling: shift so the minimum is >= 0, fit a gamma by moments."""
    t = s - min(0.0, s.min())
    mu, var = t.mean(), t.var(ddof=1)
    if not (mu > 0 and var > 0):
        return t, None
    return t, (mu * mu / var, var / mu)


def u_gamma(s):
    """Kriegel et al. SDM 2011 sec. 4.2: u = max(0, (F(s) - F(mu)) / (1 - F(mu))), F the moment-fitted gamma cdf."""
    from scipy.stats import gamma
    s = _finite(s)
    t, par = _gamma_fit(s)
    if par is None:
        return np.zeros_like(s)
    k, th = par
    Fm = gamma.cdf(t.mean(), k, scale=th)
    return np.maximum(0.0, (gamma.cdf(t, k, scale=th) - Fm) / (1 - Fm))


def u_gammalog(s):
    """-log of the moment-fitted gamma's upper tail probability (unbounded; a parametric 'Fisher' score)."""
    from scipy.stats import gamma
    s = _finite(s)
    t, par = _gamma_fit(s)
    if par is None:
        return np.zeros_like(s)
    k, th = par
    return -gamma.logsf(t, k, scale=th)


UNIFIERS = {"rank": u_rank, "gauss": u_gauss, "minmax": u_minmax, "robz": u_robz, "z": u_z,
            "logrank": u_logrank, "probit": u_probit, "gamma": u_gamma, "gammalog": u_gammalog}
BOUNDED = {"rank", "gauss", "minmax", "gamma"}  # in [0, 1]: the Fisher-like combiner applies


# ---------------------------------------------------------------- combiners: U (n x m) -> n scores
def c_mean(U, unif):
    return U.mean(1)


def c_median(U, unif):
    return np.median(U, 1)


def c_max(U, unif):
    return U.max(1)


def c_trim(U, unif):
    """Mean without each row's largest and smallest unified score (m >= 3; m = 2: the mean)."""
    m = U.shape[1]
    if m < 3:
        return U.mean(1)
    return (U.sum(1) - U.max(1) - U.min(1)) / (m - 2)


def c_aom(U, unif):
    """Average of maximums (Aggarwal & Sathe 2015), deterministic: mean over all member pairs of their max."""
    m = U.shape[1]
    if m < 2:
        return U[:, 0]
    return np.mean([np.maximum(U[:, i], U[:, j]) for i, j in itertools.combinations(range(m), 2)], 0)


def c_moa(U, unif):
    """Maximum of averages: max over all member pairs of their mean."""
    m = U.shape[1]
    if m < 2:
        return U[:, 0]
    return np.max([(U[:, i] + U[:, j]) / 2 for i, j in itertools.combinations(range(m), 2)], 0)


def c_fisher(U, unif):
    """mean_k -log(1 - u_k)  (order of prod_k (1 - u_k), reversed): one confident member counts."""
    return np.mean(-np.log(np.clip(1.0 - U, 1e-300, None)), 1)


def spearman_cols(U):
    R = np.column_stack([rankdata(U[:, k]) for k in range(U.shape[1])])
    R = R - R.mean(0)
    sd = np.sqrt((R * R).sum(0))
    sd[sd == 0] = 1.0
    return R / sd


def agreement_weights(U):
    """w_k = max(0, Spearman(u_k, mean of the other members' u))."""
    m = U.shape[1]
    tot = U.sum(1)
    w = np.empty(m)
    for k in range(m):
        other = (tot - U[:, k]) / (m - 1)
        a = rankdata(U[:, k]); b = rankdata(other)
        a -= a.mean(); b -= b.mean()
        den = math.sqrt((a * a).sum() * (b * b).sum())
        w[k] = max(0.0, (a * b).sum() / den) if den > 0 else 0.0
    return w


def c_agree(U, unif):
    w = agreement_weights(U)
    if w.sum() <= 0:
        return U.mean(1)
    return U @ (w / w.sum())


def c_agree2(U, unif):
    """Agreement weights squared (sharper)."""
    w = agreement_weights(U) ** 2
    if w.sum() <= 0:
        return U.mean(1)
    return U @ (w / w.sum())


def c_antiagree(U, unif):
    """The opposite hypothesis: weight 1 - agreement (rewards the member that sees something else)."""
    w = 1.0 - agreement_weights(U)
    w = np.maximum(w, 0)
    if w.sum() <= 0:
        return U.mean(1)
    return U @ (w / w.sum())


def _auc_fast(s, t):
    """AUROC of scores s against binary pseudo-labels t."""
    n1 = int(t.sum()); n0 = len(t) - n1
    if n1 == 0 or n0 == 0:
        return 0.5
    r = rankdata(s)
    return (r[t].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def _topq(v, q):
    n = len(v)
    k = max(1, int(math.ceil(q * n)))
    t = np.zeros(n, bool)
    t[np.argsort(-v, kind="mergesort")[:k]] = True
    return t


def c_pseudo(U, unif, q=0.1):
    """Pseudo-target = top q of the plain mean; weight_k = max(0, AUROC(u_k vs target) - 0.5)."""
    t = _topq(U.mean(1), q)
    w = np.array([max(0.0, _auc_fast(U[:, k], t) - 0.5) for k in range(U.shape[1])])
    if w.sum() <= 0:
        return U.mean(1)
    return U @ (w / w.sum())


def c_pseudo_loo(U, unif, q=0.1):
    """As c_pseudo, but member k is judged against the top q of the mean of the *others* (no self-vote)."""
    m = U.shape[1]
    tot = U.sum(1)
    w = np.array([max(0.0, _auc_fast(U[:, k], _topq((tot - U[:, k]) / (m - 1), q)) - 0.5) for k in range(m)])
    if w.sum() <= 0:
        return U.mean(1)
    return U @ (w / w.sum())


def _wpearson(x, t):
    """Schubert et al. 2012's weighted Pearson correlation with a binary target (classes weighted equally)."""
    n1 = t.sum(); n0 = len(t) - n1
    if n1 == 0 or n0 == 0:
        return 0.0
    w = np.where(t, 0.5 / n1, 0.5 / n0)
    tf = t.astype(float)
    mx = (w * x).sum(); mt = (w * tf).sum()
    cov = (w * (x - mx) * (tf - mt)).sum()
    vx = (w * (x - mx) ** 2).sum(); vt = (w * (tf - mt) ** 2).sum()
    return cov / math.sqrt(vx * vt) if vx > 0 and vt > 0 else 0.0


def c_greedy(U, unif, q=0.1):
    """Schubert, Wojdanowski, Zimek, Kriegel, SDM 2012 greedy ensemble: target = union of each member's
    top q; start with the member closest to the target; repeatedly try the remaining member least
    correlated with the current ensemble, keep it if the ensemble's correlation with the target rises."""
    m = U.shape[1]
    t = np.zeros(U.shape[0], bool)
    for k in range(m):
        t |= _topq(U[:, k], q)
    corr = [_wpearson(U[:, k], t) for k in range(m)]
    chosen = [int(np.argmax(corr))]
    rest = [k for k in range(m) if k != chosen[0]]
    cur = _wpearson(U[:, chosen].mean(1), t)
    while rest:
        ens = U[:, chosen].mean(1)
        rest.sort(key=lambda k: _wpearson_plain(U[:, k], ens))
        k = rest.pop(0)
        trial = U[:, chosen + [k]].mean(1)
        c = _wpearson(trial, t)
        if c > cur:
            chosen.append(k)
            cur = c
        # as in the paper: a rejected member is discarded
    return U[:, chosen].mean(1)


def _wpearson_plain(a, b):
    a = a - a.mean(); b = b - b.mean()
    d = math.sqrt((a * a).sum() * (b * b).sum())
    return (a * b).sum() / d if d > 0 else 0.0


def c_select1(U, unif):
    """The single member that agrees most with the others (Spearman)."""
    return U[:, int(np.argmax(agreement_weights(U)))]


COMBINERS = {"mean": c_mean, "median": c_median, "max": c_max, "trim": c_trim, "aom": c_aom, "moa": c_moa,
             "fisher": c_fisher, "agree": c_agree, "agree2": c_agree2, "antiagree": c_antiagree,
             "pseudo": c_pseudo, "pseudoloo": c_pseudo_loo, "greedy": c_greedy, "select1": c_select1}

# Monotone-invariant combiners: for rank / logrank / probit they give the same ordering -> only rank
# (max always; median only for an odd number of members, where it is one member's value).
ORDER_ONLY = {"median", "max"}
