"""Stage 2: group pips into dice and read each group's face by fitting the standard pip patterns.

Pips of one die have similar size, contrast and polarity and lie close together (neighbours on a face are 3-6 pip
radii apart), but so may the nearest pips of two touching dice. So pips are linked generously and each linked group
is split (cuts of its minimum spanning tree, searched with memoisation) into the faces that explain the most pips
with good fits to the six standard layouts (rotation and scale, then an affine refinement for 4-6 pips, which
allows for perspective and for narrow 6s). Fit error, pip spacing relative to pip size, pip roundness and
unexplained pips give each reading its confidence. Lone pips become a 1 (if the face around them is plain) or pair
up as a 2 (the two pips of a 2 sit in opposite corners, often too far apart to link as neighbours).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.detections import Detections
from companion.vision.pips import Pips

_C = np.array([[-1, -1], [1, 1], [-1, 1], [1, -1]], dtype=np.float32)
TEMPLATES: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], dtype=np.float32),
    2: _C[:2],
    3: np.array([[-1, -1], [0, 0], [1, 1]], dtype=np.float32),
    4: _C,
    5: np.vstack([_C, [[0, 0]]]).astype(np.float32),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], dtype=np.float32),
}


@dataclass(frozen=True)
class FaceSettings:
    """Geometry of a standard pip die, mostly in units of the pip radius. Set by hand, not fitted by a program
    (see docs/dice-reader.md for how they were chosen)."""

    link: float = 7.2  # pips closer than this many radii may be neighbours on one face (groups are split later)
    radius_ratio: float = 1.9  # neighbours' radii differ by at most this factor
    contrast_ratio: float = 2.5  # ... and their contrasts (the pips of one face are printed alike)
    pair_min: float = 5.0  # two lone pips this far apart (in radii) ...
    pair_max: float = 10.0  # ... and not farther may be the two pips of a 2
    stray_factor: float = 0.7  # confidence factor per unexplained pip linked to a face
    face_cost: float = 1.0  # a split into more faces must explain this much more (in well-fitted pips) per face
    max_group: int = 24  # groups larger than this are first cut at their longest links
    cuts_tried: int = 99  # a group is split at one of its this many longest links (boundaries between dice)
    search_budget: int = 400  # group splits looked at in full before the search narrows
    good_fit: float = 0.8  # a group that fits one face this well is not searched for splits
    offset_min: float = 1.55  # pattern offset (centre to corner pip along one axis) in pip radii
    offset_max: float = 5.0
    max_fit_error: float = 0.32  # rms pattern fit error / pattern offset
    round_pips: float = 1.45  # pips on a face seen from above are round: elongation up to this is fine ...
    small_pip_slack: float = 0.0  # extra elongation allowed for small pips: this / radius**2 (px); 0 = none
    # (1-2 helps tiny blurred pips, but lets the side faces of dice seen at an angle in too)
    edge_on_pips: float = 1.8  # pips this elongated are not linked at all
    flat_pips: float = 1.8  # ... and from this on they are on a side face seen edge-on (not the top face)
    die_half: float = 1.9  # half the die side / pattern offset
    face_disc: float = 1.5  # the face checked for plainness: a disc of this many pattern offsets (reaches the
    # empty corner spots, so a pip hidden from the fit, say under glare, makes the reading unsure)
    single_half: float = 5.0  # half the die side / pip radius, for a lone pip
    crowded_single: float = 0.6  # confidence factor for a 1 whose pip was linked to other pips


@dataclass(frozen=True)
class Fit:
    """A pattern fit: the value, the error (relative), the offset (px) and the fitted centre."""

    value: int
    error: float
    offset: float
    cx: float
    cy: float


def _assign(p: np.ndarray, tt: np.ndarray) -> np.ndarray:
    """Greedy one-to-one assignment of points to template points, smallest distances first: perm[i] = template."""
    n = len(p)
    d = np.hypot(*(p[:, None, :] - tt[None, :, :]).transpose(2, 0, 1))
    perm = np.full(n, -1)
    used_t = np.zeros(n, dtype=bool)
    for flat in np.argsort(d, axis=None):
        i, k = divmod(int(flat), n)
        if perm[i] < 0 and not used_t[k]:
            perm[i] = k
            used_t[k] = True
    return perm


def fit_pattern(pts: np.ndarray, max_stretch: float = 1.8) -> Fit | None:
    """Fit the standard layout with len(pts) pips (2-6): pair pips with layout positions by a rotation-and-scale
    fit, then (4-6 pips) refine with an affine fit, which allows for perspective and for dice whose 6 is narrower
    than their 4; stretch beyond ``max_stretch`` is no die face. None if nothing fits."""
    n = len(pts)
    if n < 2 or n > 6:
        return None
    t = TEMPLATES[n]
    c = pts.mean(axis=0)
    p = (pts - c).astype(np.float64)
    far = int(np.argmax(np.hypot(p[:, 0], p[:, 1])))
    pr = float(np.hypot(*p[far]))
    if pr == 0:
        return None
    best: Fit | None = None
    tn = np.hypot(t[:, 0], t[:, 1])
    for j in np.nonzero(tn > 0.95 * tn.max())[0]:  # the farthest pip is a corner of the layout
        ang = np.arctan2(p[far, 1], p[far, 0]) - np.arctan2(t[j, 1], t[j, 0])
        scale = pr / tn[j]
        rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
        perm = _assign(p, (t @ rot.T) * scale)
        src = t[perm].astype(np.float64)
        if n >= 4:
            a, *_ = np.linalg.lstsq(src, p, rcond=None)  # p ~ src @ a (templates are centred)
            sv = np.linalg.svd(a, compute_uv=False)
            if sv[1] <= 1e-6 or sv[0] / sv[1] > max_stretch:
                continue
            scale = float(np.sqrt(sv[0] * sv[1]))
            resid = p - src @ a
        else:
            resid = p - src @ rot.T * scale
        err = float(np.sqrt((resid**2).sum() / n)) / scale
        if best is None or err < best.error:
            best = Fit(n, err, float(scale), float(c[0]), float(c[1]))
    return best


def _components(adj: np.ndarray) -> list[list[int]]:
    n = len(adj)
    seen = np.zeros(n, dtype=bool)
    out = []
    for s in range(n):
        if seen[s]:
            continue
        stack, comp = [s], []
        seen[s] = True
        while stack:
            i = stack.pop()
            comp.append(i)
            for j in np.nonzero(adj[i] & ~seen)[0]:
                seen[j] = True
                stack.append(int(j))
        out.append(sorted(comp))
    return out


def _mst_edges(idx: list[int], xy: np.ndarray) -> list[tuple[float, int, int]]:
    """Edges (length, a, b) of the minimum spanning tree over the points ``idx`` (a, b index into ``idx``)."""
    pts = xy[idx]
    n = len(idx)
    d = np.hypot(*(pts[:, None] - pts[None]).transpose(2, 0, 1))
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    best = d[0].copy()
    parent = np.zeros(n, dtype=int)
    edges = []
    for _ in range(n - 1):
        cand = np.where(in_tree, np.inf, best)
        j = int(np.argmin(cand))
        edges.append((float(d[parent[j], j]), int(parent[j]), j))
        in_tree[j] = True
        closer = d[j] < best
        parent[closer] = j
        best = np.minimum(best, d[j])
    return edges


def _cut(idx: list[int], edges: list[tuple[float, int, int]], drop: int) -> list[list[int]]:
    """The two parts of a spanning tree without edge number ``drop`` (plain union-find: trees are small)."""
    parent = list(range(len(idx)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for k, (_, a, b) in enumerate(edges):
        if k != drop:
            parent[root(a)] = root(b)
    parts: dict[int, list[int]] = {}
    for i in range(len(idx)):
        parts.setdefault(root(i), []).append(idx[i])
    return sorted((sorted(p) for p in parts.values()), key=lambda p: p[0])


@dataclass
class _Face:
    value: int
    cx: float
    cy: float
    half: float
    confidence: float
    pips: list[int]


def _score(fit: Fit, r: float, s: FaceSettings) -> float:
    """Confidence 0-1 of a pattern fit from its error and its spacing relative to the pip size."""
    ratio = fit.offset / max(r, 1e-3)
    if fit.value == 2:
        ratio = fit.offset / max(r, 1e-3)  # 2-pip offset is the corner offset, same as others
    if not (s.offset_min <= ratio <= s.offset_max):
        return 0.0
    return float(np.clip(1.0 - fit.error / s.max_fit_error, 0.0, 1.0))


def median(values: np.ndarray) -> float:
    """Median of a small array (much quicker than ``np.median`` for the few values of one die)."""
    v = np.sort(np.ravel(values))
    n = len(v)
    return float(v[n // 2]) if n % 2 else (float(v[n // 2 - 1]) + float(v[n // 2])) / 2


def quantiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """Nearest-rank quantiles (0-1) of an array, one sort for all of them."""
    v = np.sort(np.ravel(values))
    return [float(v[min(len(v) - 1, round(q * (len(v) - 1)))]) for q in qs]


def _roundness(aspect: np.ndarray, s: FaceSettings, r: float | np.ndarray = np.inf) -> float:
    """1 for round pips, falling to 0 for the flattened pips of a side face. The shape of a blob a few pixels
    across is a rough measure (pixel grid, JPEG blocks), so small pips (radius ``r``) get some slack."""
    e = median(aspect) - s.small_pip_slack / median(np.asarray(r)) ** 2
    return float(np.clip((s.flat_pips - e) / (s.flat_pips - s.round_pips), 0.0, 1.0))


def _read_group(idx: list[int], pips: Pips, s: FaceSettings) -> list[_Face]:
    """The best split of one linked group of pips into die faces: each face fits a standard layout; the split
    with the most well-fitted pips wins, and fewer faces win ties (so a 6 is not read as two 3s)."""
    xy = pips.xy
    memo: dict[tuple[int, ...], tuple[float, list[_Face]]] = {}

    def one_face(part: list[int]) -> _Face | None:
        fit = fit_pattern(xy[part])
        if fit is None:
            return None
        conf = _score(fit, median(pips.r[part]), s) * _roundness(pips.aspect[part], s, pips.r[part])
        if conf <= 0.15:
            return None
        return _Face(fit.value, fit.cx, fit.cy, s.die_half * fit.offset, conf, part)

    def best(part: list[int]) -> tuple[float, list[_Face]]:
        key = tuple(part)
        if key in memo:
            return memo[key]
        result: tuple[float, list[_Face]] = (0.0, [])
        if 2 <= len(part) <= 6:
            face = one_face(part)
            if face:
                result = (face.confidence * len(part) - s.face_cost, [face])
        if len(part) >= 3 and not (result[1] and result[1][0].confidence >= s.good_fit):
            edges = _mst_edges(part, xy)
            order = sorted(range(len(edges)), key=lambda k: -edges[k][0])
            # big groups, and any group once the search has grown large, are cut at their longest link only
            wide = len(part) <= s.max_group and len(memo) < s.search_budget
            order = order[: s.cuts_tried if wide else 1]
            for k in order:
                parts = _cut(part, edges, k)
                total, faces = 0.0, []
                for q in parts:
                    t, f = best(q)
                    total += t
                    faces += f
                if total > result[0] + 1e-6:
                    result = (total, faces)
        memo[key] = result
        return result

    return best(sorted(idx))[1]


def plainness(
    gray: np.ndarray, cx: float, cy: float, radius: float, pip_xy: np.ndarray, pip_r: np.ndarray, polarity: int
) -> float:
    """0-1: how much the face around the pips looks like one plain die face: the disc of ``radius`` around the
    centre, pips left out, should be even and clearly lighter (dark pips) or darker (light pips) than the pips."""
    h, w = gray.shape[:2]
    x0, y0 = int(max(0, cx - radius)), int(max(0, cy - radius))
    x1, y1 = int(min(w, cx + radius + 1)), int(min(h, cy + radius + 1))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 0.0
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    inside = np.hypot(xx - cx, yy - cy) <= radius
    core = np.zeros_like(inside)
    for (px, py), pr in zip(pip_xy, pip_r, strict=True):
        dist = np.hypot(xx - px, yy - py)
        inside &= dist > 1.5 * pr
        core |= dist <= 0.6 * pr
    win = gray[y0:y1, x0:x1]
    face, pip = win[inside], win[core]
    if face.size < 8 or pip.size == 0:
        return 0.0
    lo, mid, hi = quantiles(face, (0.1, 0.5, 0.9))
    contrast = (mid - median(pip)) * (1 if polarity == 0 else -1)
    if contrast <= 0:
        return 0.0
    return float(np.clip(1.5 - (hi - lo) / contrast, 0.0, 1.0))


def group_pips(
    pips: Pips, settings: FaceSettings | None = None, gray: np.ndarray | None = None
) -> tuple[Detections, list[int], set[int]]:
    """Dice read from pip groups (values 2-6), the indices of lone pips that may be 1s, and which of those were
    linked to other pips (a 1 among other dice's pips is less sure).
    With ``gray`` given, each reading's confidence also reflects how plain the face around its pips is."""
    s = settings or FaceSettings()
    n = len(pips)
    if n == 0:
        return Detections.empty(), [], set()
    xy = pips.xy
    d = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
    rm = (pips.r[:, None] + pips.r[None]) / 2
    ratio = np.maximum(pips.r[:, None], pips.r[None]) / np.maximum(np.minimum(pips.r[:, None], pips.r[None]), 1e-3)
    same = pips.polarity[:, None] == pips.polarity[None]
    flat = (
        pips.aspect - s.small_pip_slack / pips.r**2 > s.edge_on_pips
    )  # pips of side faces seen edge-on link to nothing (they are no top face)
    c = np.maximum(pips.contrast, 1e-3)
    alike = np.maximum(c[:, None], c[None]) <= s.contrast_ratio * np.minimum(c[:, None], c[None])
    adj = (d <= s.link * rm) & (ratio <= s.radius_ratio) & alike & same & ~flat[:, None] & ~flat[None, :]
    np.fill_diagonal(adj, False)
    faces: list[_Face] = []
    lone: list[int] = []
    crowded: set[int] = set()
    for comp in _components(adj):
        if len(comp) == 1:
            lone.append(comp[0])
            continue
        got = _read_group(comp, pips, s)
        used = {i for f in got for i in f.pips}
        leftovers = [i for i in comp if i not in used]
        _penalise_strays(got, leftovers, pips, adj, s)
        faces += got
        # a leftover may be the lone pip of a 1 touching another die, unless it sits among other unexplained pips
        lone += [i for i in leftovers if not any(adj[i, j] for j in leftovers)]
        crowded.update(leftovers)
    faces += _pair_lone(lone, pips, s, d, rm, ratio, same)
    if gray is not None:
        for f in faces:
            pol = int(pips.polarity[f.pips[0]])
            f.confidence *= plainness(
                gray, f.cx, f.cy, f.half / s.die_half * s.face_disc, pips.xy[f.pips], pips.r[f.pips], pol
            )
    return _to_detections(faces, pips), lone, crowded


def _penalise_strays(faces: list[_Face], leftovers: list[int], pips: Pips, adj: np.ndarray, s: FaceSettings) -> None:
    """A face linked to pips of its group that no face explains (a glint, a hidden pip, a wrong split) is
    unsure: its confidence halves for each such pip."""
    if not leftovers:
        return
    left = np.asarray(leftovers)
    for f in faces:
        strays = int(adj[np.ix_(np.asarray(f.pips), left)].any(axis=0).sum())
        f.confidence *= s.stray_factor**strays


def _pair_lone(
    lone: list[int], pips: Pips, s: FaceSettings, d: np.ndarray, rm: np.ndarray, ratio: np.ndarray, same: np.ndarray
) -> list[_Face]:
    """Lone pips that are each other's nearest lone partner at a 2's spacing become a 2."""
    if len(lone) < 2:
        return []
    li = np.asarray(lone)
    sub = d[np.ix_(li, li)] / rm[np.ix_(li, li)]
    ok = (sub >= s.pair_min) & (sub <= s.pair_max) & (ratio[np.ix_(li, li)] <= 1.5) & same[np.ix_(li, li)]
    dd = np.where(ok, d[np.ix_(li, li)], np.inf)
    np.fill_diagonal(dd, np.inf)
    out = []
    for a in range(len(li)):
        b = int(np.argmin(dd[a]))
        if a < b and np.isfinite(dd[a, b]) and int(np.argmin(dd[b])) == a:
            idx = [int(li[a]), int(li[b])]
            fit = fit_pattern(pips.xy[idx])
            if fit:
                conf = 0.9 * float(np.clip(min(pips.contrast[idx]) / 60.0, 0.3, 1.0))
                conf *= _roundness(pips.aspect[idx], s, pips.r[idx])
                out.append(_Face(2, fit.cx, fit.cy, s.die_half * fit.offset, conf, idx))
    return out


def _to_detections(faces: list[_Face], pips: Pips) -> Detections:
    if not faces:
        return Detections.empty()
    boxes = [[f.cx - f.half, f.cy - f.half, f.cx + f.half, f.cy + f.half] for f in faces]
    return Detections.from_lists(
        np.round(boxes),
        [f.value for f in faces],
        [f.confidence for f in faces],
        data={
            "pips": np.asarray([len(f.pips) for f in faces]),
            "polarity": np.asarray([int(pips.polarity[f.pips[0]]) for f in faces]),
            "pip_r": np.asarray([median(pips.r[f.pips]) for f in faces]),
        },
    )
