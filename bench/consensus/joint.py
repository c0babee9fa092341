#!/usr/bin/python3
"""LOSO choosing on rare + whole means of the 20 other sets (both protocols), held-out set scored in both;
and which member select1 rules pick per set."""
import os, sys, pickle
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyze import members
from final import OUT, merged, scalable
from rules import UNIFIERS, agreement_weights

R, W = merged("rare"), merged("whole")
C, A, B, sets = R["cands"], R["auc"], W["auc"], R["sets"]
S = len(sets)
dm = lambda c: sorted(members(c)) == ["iforest", "knn", "mcd"]
for name, ok in [("union", lambda c: True), ("scalable", scalable), ("default members", dm),
                 ("no select1", lambda c: "|select1|" not in c), ("scalable, no select1", lambda c: scalable(c) and "|select1|" not in c)]:
    idx = np.array([i for i, c in enumerate(C) if ok(c)])
    J = A[idx] + B[idx]
    tot = J.sum(1)
    hr, hw, ch = [], [], []
    for j in range(S):
        b = idx[int(np.argmax(tot - J[:, j]))]
        hr.append(A[b, j]); hw.append(B[b, j]); ch.append(C[b])
    b = idx[int(np.argmax(tot))]
    from collections import Counter
    print("%-22s held-out rare %.3f (min %.3f), whole %.3f (min %.3f); chosen on all: %s (rare %.3f, whole %.3f); folds: %s" % (
        name, np.mean(hr), np.min(hr), np.mean(hw), np.min(hw), C[b], A[b].mean(), B[b].mean(),
        "; ".join("%s x%d" % kv for kv in Counter(ch).most_common(4))))
for kind in ["rare", "whole"]:
    d = pickle.load(open(os.path.join(OUT, "%s.pkl" % kind), "rb"))
    for rule in ["z|select1|mcd+kods+quadrics-base", "minmax|select1|iforest+mcd+quadrics-base", "rank|select1|knn+mcd+ocsvm"]:
        un, co, mem = rule.split("|")
        mem = mem.split("+")
        picks = []
        for s in sorted(d):
            U = np.column_stack([UNIFIERS[un](d[s][m]) for m in mem])
            k = int(np.argmax(agreement_weights(U)))
            picks.append("%s:%s" % (s, mem[k]))
        print(kind, rule, " ".join(picks))
