/* The move generator's search, compiled: the same anchor method as movegen.py.
 *
 * movegen.py is the reference and says what a legal play is; this file walks
 * the same packed word graph (lexicon.py's 32-bit nodes) with the same
 * left-part rule, the same per-square cross-checks and the same blank
 * choices, so both list the same plays with the same scores (a hypothesis
 * test holds them equal). What it adds is speed, and a top-N mode that first
 * bounds each (direction, row, anchor) from above and searches the anchors in
 * falling order of bound, stopping once no bound can reach the N-th score.
 *
 * Built against the stable ABI (Py_LIMITED_API 3.11) so that one .so serves
 * every newer CPython the Lambda runtime may bring.
 *
 * The search runs with the GIL released: the server calls it from worker
 * threads beside its event loop, which must keep answering meanwhile. So
 * generate copies its arguments into plain C data first, searches on that
 * alone (search() and all it calls use no Python object or API), and builds
 * the Python plays only once it holds the GIL again.
 */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030B0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 15
#define ARC_MASK ((1u << 22) - 1)
#define IS_END (1u << 22)
#define ACCEPTS (1u << 23)
#define ALL_LETTERS 0x7FFFFFEu /* bits 1..26 */
#define MAX_TILES 16
#define BONUS_WORDS (SIZE + 2)

typedef struct {
    int32_t score;
    uint8_t dir, row, col; /* row, col: the play's first square, players' grid (0-based) */
    uint8_t line, start, end, n, blanks; /* blanks: bit i set when placed tile i is a blank */
    uint8_t sq[MAX_TILES], t[MAX_TILES];
} Rec;

typedef struct {
    const uint32_t *nodes;
    Py_ssize_t n_nodes;
    uint32_t root;
    uint8_t chars[2][SIZE][SIZE]; /* board text per pass ('.' empty, lower case: blank) */
    uint8_t tiles[2][SIZE][SIZE];
    int face[2][SIZE][SIZE];
    int lm[2][SIZE][SIZE], wm[2][SIZE][SIZE];
    uint32_t mask[2][SIZE][SIZE];
    uint8_t cross[2][SIZE][SIZE];
    int xsum[2][SIZE][SIZE];
    int values[27];
    int rack[27];
    int blanks, rack_total;
    uint32_t rack_mask;
    int32_t *bonus; /* [used][words], BONUS_WORDS columns; this call's own copy */
    int bonus_rows;
    /* search state */
    int p, r, anchor, start;
    int used[27];
    int nplaced;
    uint8_t pc[MAX_TILES], pt[MAX_TILES];
    int pv[MAX_TILES], pw[MAX_TILES];
    uint8_t part[MAX_TILES];
    /* found plays */
    Rec *recs;
    size_t n_recs, cap;
    int failed;
    /* top-N: a min-heap of the best N scores so far */
    int top;
    int32_t *heap;
    int heap_n;
} Gen;

static inline int bonus_at(const Gen *g, int used, int words) {
    if (used >= g->bonus_rows) used = g->bonus_rows - 1;
    if (words >= BONUS_WORDS) words = BONUS_WORDS - 1;
    return g->bonus[used * BONUS_WORDS + words];
}

/* The arc for tile t out of the state whose arcs start at idx, or 0. */
static inline uint32_t arc_for(const Gen *g, uint32_t idx, int t) {
    if (!idx) return 0;
    for (uint32_t i = idx;; i++) {
        uint32_t node = g->nodes[i];
        int nt = (int)(node >> 24);
        if (nt == t) return node;
        if (nt > t || (node & IS_END)) return 0;
    }
}

static int threshold_reached(const Gen *g, int32_t score) {
    /* true when a play of this score cannot enter the top N */
    return g->top && g->heap_n == g->top && score < g->heap[0];
}

static void heap_push(Gen *g, int32_t score) {
    int32_t *h = g->heap;
    if (g->heap_n < g->top) {
        int i = g->heap_n++;
        h[i] = score;
        while (i > 0) {
            int up = (i - 1) / 2;
            if (h[up] <= h[i]) break;
            int32_t tmp = h[up];
            h[up] = h[i];
            h[i] = tmp;
            i = up;
        }
    } else if (score > h[0]) {
        h[0] = score;
        int i = 0;
        for (;;) {
            int l = 2 * i + 1, s = i;
            if (l < g->heap_n && h[l] < h[s]) s = l;
            if (l + 1 < g->heap_n && h[l + 1] < h[s]) s = l + 1;
            if (s == i) break;
            int32_t tmp = h[s];
            h[s] = h[i];
            h[i] = tmp;
            i = s;
        }
    }
}

static void push_rec(Gen *g, int end, int32_t score, uint8_t blanks) {
    if (g->failed || threshold_reached(g, score)) return;
    if (g->n_recs == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 4096;
        Rec *grown = (Rec *)realloc(g->recs, cap * sizeof(Rec));
        if (!grown) {
            g->failed = 1;
            return;
        }
        g->recs = grown;
        g->cap = cap;
    }
    Rec *rec = &g->recs[g->n_recs++];
    rec->score = score;
    rec->dir = (uint8_t)g->p;
    rec->line = (uint8_t)g->r;
    rec->start = (uint8_t)g->start;
    rec->end = (uint8_t)end;
    if (g->p) {
        rec->row = (uint8_t)g->start;
        rec->col = (uint8_t)g->r;
    } else {
        rec->row = (uint8_t)g->r;
        rec->col = (uint8_t)g->start;
    }
    rec->n = (uint8_t)g->nplaced;
    rec->blanks = blanks;
    memcpy(rec->sq, g->pc, (size_t)g->nplaced);
    memcpy(rec->t, g->pt, (size_t)g->nplaced);
    if (g->top) heap_push(g, score);
}

/* Each way to take the placed letters from the rack (which of them are blanks),
 * as movegen._blank_choices: a blank loses its points times the main word's
 * multiplier plus its cross word's. */
static void record(Gen *g, int end, int wmul, int32_t score) {
    int n = g->nplaced;
    if (!g->blanks) {
        push_rec(g, end, score, 0);
        return;
    }
    int lost[MAX_TILES];
    for (int i = 0; i < n; i++) lost[i] = g->pv[i] * (wmul + g->pw[i]);
    int short_mask[MAX_TILES], short_need[MAX_TILES], n_short = 0, needed = 0;
    uint32_t seen = 0;
    for (int i = 0; i < n; i++) {
        int t = g->pt[i];
        if (g->used[t] > g->rack[t] && !(seen >> t & 1)) {
            seen |= 1u << t;
            int m = 0;
            for (int j = 0; j < n; j++)
                if (g->pt[j] == t) m |= 1 << j;
            short_mask[n_short] = m;
            short_need[n_short] = g->used[t] - g->rack[t];
            needed += short_need[n_short];
            n_short++;
        }
    }
    int most = g->blanks < n ? g->blanks : n;
    for (int bits = 0; bits < (1 << n); bits++) {
        int k = __builtin_popcount((unsigned)bits);
        if (k < needed || k > most) continue;
        int ok = 1;
        for (int s = 0; s < n_short && ok; s++)
            if (__builtin_popcount((unsigned)(bits & short_mask[s])) < short_need[s]) ok = 0;
        if (!ok) continue;
        int32_t penalty = 0;
        for (int i = 0; i < n; i++)
            if (bits >> i & 1) penalty += lost[i];
        push_rec(g, end, score - penalty, (uint8_t)bits);
    }
}

static void extend(Gen *g, int c, uint32_t idx, int accepts, int msum, int wmul, int xtot, int nx,
                   int short_) {
    const int p = g->p, r = g->r;
    if (c < SIZE) {
        int t = g->tiles[p][r][c];
        if (t) {
            uint32_t arc = arc_for(g, idx, t);
            if (arc)
                extend(g, c + 1, arc & ARC_MASK, (arc & ACCEPTS) != 0, msum + g->face[p][r][c],
                       wmul, xtot, nx, short_);
            return;
        }
    }
    if (accepts && c > g->anchor && c - g->start >= 2) {
        int n = g->nplaced;
        if (!(n == 1 && p == 1 && nx)) record(g, c, wmul, msum * wmul + xtot + bonus_at(g, n, nx + 1));
    }
    if (c >= SIZE || !idx) return;
    uint32_t mask = g->mask[p][r][c];
    if (!mask) return;
    int lmc = g->lm[p][r][c], wmc = g->wm[p][r][c];
    int cross = g->cross[p][r][c], xs = g->xsum[p][r][c];
    for (uint32_t i = idx;; i++) {
        uint32_t node = g->nodes[i];
        int t = (int)(node >> 24);
        if (mask >> t & 1) {
            int over = g->used[t] >= g->rack[t];
            if (!over || short_ < g->blanks) {
                g->used[t]++;
                int v = g->values[t] * lmc;
                int k = g->nplaced++;
                g->pc[k] = (uint8_t)c;
                g->pt[k] = (uint8_t)t;
                g->pv[k] = v;
                if (cross) {
                    g->pw[k] = wmc;
                    extend(g, c + 1, node & ARC_MASK, (node & ACCEPTS) != 0, msum + v, wmul * wmc,
                           xtot + (xs + v) * wmc, nx + 1, short_ + over);
                } else {
                    g->pw[k] = 0;
                    extend(g, c + 1, node & ARC_MASK, (node & ACCEPTS) != 0, msum + v, wmul * wmc,
                           xtot, nx, short_ + over);
                }
                g->nplaced--;
                g->used[t]--;
            }
        }
        if (node & IS_END) break;
    }
}

/* Left parts over the empty, non-anchor squares left of the anchor: word starts
 * the graph can continue, from the rack (blanks standing in for the rest). */
static void left_part(Gen *g, int k, uint32_t idx, int short_, int limit) {
    const int p = g->p, r = g->r;
    int start = g->anchor - k, msum = 0, wmul = 1;
    for (int i = 0; i < k; i++) {
        int c = start + i, t = g->part[i];
        int v = g->values[t] * g->lm[p][r][c];
        msum += v;
        wmul *= g->wm[p][r][c];
        g->pc[i] = (uint8_t)c;
        g->pt[i] = (uint8_t)t;
        g->pv[i] = v;
        g->pw[i] = 0;
    }
    g->nplaced = k;
    g->start = start;
    extend(g, g->anchor, idx, 0, msum, wmul, 0, 0, short_);
    g->nplaced = 0;
    if (k == limit || g->failed) return;
    for (uint32_t i = idx;; i++) {
        uint32_t node = g->nodes[i];
        int t = (int)(node >> 24);
        uint32_t next = node & ARC_MASK;
        if (next) {
            int over = g->used[t] >= g->rack[t];
            if (!over || short_ < g->blanks) {
                g->used[t]++;
                g->part[k] = (uint8_t)t;
                left_part(g, k + 1, next, short_ + over, limit);
                g->used[t]--;
            }
        }
        if (node & IS_END) break;
    }
}

static void cross_checks(Gen *g, int p) {
    for (int r = 0; r < SIZE; r++) {
        for (int c = 0; c < SIZE; c++) {
            g->mask[p][r][c] = 0;
            g->cross[p][r][c] = 0;
            g->xsum[p][r][c] = 0;
            if (g->tiles[p][r][c]) continue;
            int top = r, bottom = r;
            while (top > 0 && g->tiles[p][top - 1][c]) top--;
            while (bottom < SIZE - 1 && g->tiles[p][bottom + 1][c]) bottom++;
            if (top == r && bottom == r) {
                g->mask[p][r][c] = ALL_LETTERS;
                continue;
            }
            g->cross[p][r][c] = 1;
            int sum = 0;
            for (int i = top; i <= bottom; i++)
                if (i != r) sum += g->face[p][i][c];
            g->xsum[p][r][c] = sum;
            uint32_t idx = g->root;
            int ok = 1;
            for (int i = top; i < r && ok; i++) {
                uint32_t arc = arc_for(g, idx, g->tiles[p][i][c]);
                if (!arc) ok = 0;
                else idx = arc & ARC_MASK;
            }
            if (!ok || !idx) continue;
            uint32_t mask = 0;
            for (uint32_t i = idx;; i++) {
                uint32_t node = g->nodes[i];
                int t = (int)(node >> 24);
                if (bottom == r) {
                    if (node & ACCEPTS) mask |= 1u << t;
                } else {
                    uint32_t at = node & ARC_MASK, arc = 0;
                    int walked = 1;
                    for (int j = r + 1; j <= bottom; j++) {
                        arc = arc_for(g, at, g->tiles[p][j][c]);
                        if (!arc) {
                            walked = 0;
                            break;
                        }
                        at = arc & ARC_MASK;
                    }
                    if (walked && (arc & ACCEPTS)) mask |= 1u << t;
                }
                if (node & IS_END) break;
            }
            g->mask[p][r][c] = mask;
        }
    }
}

/* One unit of search: a direction, a line and an anchor on it. */
typedef struct {
    int32_t bound;
    uint8_t p, r, anchor;
} Unit;

static int is_anchor(const Gen *g, int p, int r, int c) {
    if (g->tiles[p][r][c]) return 0;
    return (c > 0 && g->tiles[p][r][c - 1]) || (c < SIZE - 1 && g->tiles[p][r][c + 1]) ||
           (r > 0 && g->tiles[p][r - 1][c]) || (r < SIZE - 1 && g->tiles[p][r + 1][c]);
}

/* How far a left part may reach: empty squares that are not anchors. */
static int left_room(const Gen *g, int p, int r, int anchor, int opening) {
    int limit = 0;
    for (int c = anchor - 1; c >= 0 && !g->tiles[p][r][c]; c--) {
        if (!opening && is_anchor(g, p, r, c)) break;
        limit++;
    }
    if (limit > g->rack_total - 1) limit = g->rack_total - 1;
    return limit;
}

static void search_unit(Gen *g, const Unit *u, int opening) {
    int p = u->p, r = u->r, anchor = u->anchor;
    g->p = p;
    g->r = r;
    g->anchor = anchor;
    if (!(g->mask[p][r][anchor] & g->rack_mask)) return;
    if (anchor > 0 && g->tiles[p][r][anchor - 1]) {
        int first = anchor - 1;
        while (first > 0 && g->tiles[p][r][first - 1]) first--;
        uint32_t idx = g->root;
        int msum = 0;
        for (int c = first; c < anchor; c++) {
            uint32_t arc = arc_for(g, idx, g->tiles[p][r][c]);
            if (!arc) return;
            idx = arc & ARC_MASK;
            msum += g->face[p][r][c];
        }
        if (!idx) return;
        g->start = first;
        g->nplaced = 0;
        extend(g, anchor, idx, 0, msum, 1, 0, 0, 0);
        return;
    }
    left_part(g, 0, g->root, 0, left_room(g, p, r, anchor, opening));
}

/* Upper bound for every play from a unit, ignoring which words exist: the
 * rack's values, highest first, on the squares that weigh most (rearrangement
 * inequality), for every span the play could cover. */
static int32_t unit_bound(const Gen *g, const Unit *u, const int *vals, int opening) {
    int p = u->p, r = u->r, anchor = u->anchor;
    int32_t best = INT32_MIN;
    if (!(g->mask[p][r][anchor] & g->rack_mask)) return best;
    int fixed_left = anchor > 0 && g->tiles[p][r][anchor - 1];
    int room = fixed_left ? 0 : left_room(g, p, r, anchor, opening);
    int face_left = 0;
    if (fixed_left)
        for (int c = anchor - 1; c >= 0 && g->tiles[p][r][c]; c--) face_left += g->face[p][r][c];
    for (int k = 0; k <= room; k++) {
        int n = 0, nx = 0, face = face_left, wprod = 1, xfixed = 0;
        int sl[MAX_TILES], sw[MAX_TILES];
        for (int c = anchor - k; c < anchor; c++) {
            sl[n] = g->lm[p][r][c];
            sw[n] = 0;
            wprod *= g->wm[p][r][c];
            n++;
        }
        int placed_right = 0;
        for (int c = anchor;; c++) {
            int edge = c == SIZE;
            if (!edge && g->tiles[p][r][c]) {
                face += g->face[p][r][c];
                continue;
            }
            if (placed_right) {
                /* a play may end here: the square is empty, or the edge */
                int weights[MAX_TILES];
                for (int i = 0; i < n; i++) {
                    int w = sl[i] * (wprod + sw[i]);
                    int j = i;
                    while (j > 0 && weights[j - 1] < w) {
                        weights[j] = weights[j - 1];
                        j--;
                    }
                    weights[j] = w;
                }
                int32_t score = face * wprod + xfixed + bonus_at(g, n, nx + 1);
                for (int i = 0; i < n; i++) score += vals[i] * weights[i];
                if (score > best) best = score;
            }
            if (edge || n == g->rack_total || !(g->mask[p][r][c] & g->rack_mask)) break;
            int wmc = g->wm[p][r][c];
            sl[n] = g->lm[p][r][c];
            sw[n] = g->cross[p][r][c] ? wmc : 0;
            if (g->cross[p][r][c]) {
                nx++;
                xfixed += g->xsum[p][r][c] * wmc;
            }
            wprod *= wmc;
            n++;
            placed_right = 1;
        }
    }
    return best;
}

static int unit_by_bound(const void *a, const void *b) {
    const Unit *x = (const Unit *)a, *y = (const Unit *)b;
    return (x->bound < y->bound) - (x->bound > y->bound);
}

/* movegen.Move.sort_key: score down, across first, row, col, then the tiles. */
static int rec_order(const void *a, const void *b) {
    const Rec *x = (const Rec *)a, *y = (const Rec *)b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    if (x->dir != y->dir) return x->dir < y->dir ? -1 : 1;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    int n = x->n < y->n ? x->n : y->n;
    for (int i = 0; i < n; i++) {
        if (x->sq[i] != y->sq[i]) return x->sq[i] < y->sq[i] ? -1 : 1;
        if (x->t[i] != y->t[i]) return x->t[i] < y->t[i] ? -1 : 1;
        int bx = x->blanks >> i & 1, by = y->blanks >> i & 1;
        if (bx != by) return bx < by ? -1 : 1;
    }
    return (x->n > y->n) - (x->n < y->n);
}

/* The search proper, on the plain C data in g alone: both entry points run it
 * with the GIL released, so that other Python threads (the event loop, other
 * searches) run meanwhile. Nothing it calls may touch a Python object or the C
 * API: memory comes from malloc, and running out only sets g->failed, which the
 * caller turns into MemoryError once it holds the GIL again. All it writes is
 * in g, the call's own, so searches on several threads at once share nothing
 * but the graph they read. */
static void search(Gen *g, int opening) {
    Unit *units = (Unit *)malloc(sizeof(Unit) * 2 * SIZE * SIZE);
    if (!units) {
        g->failed = 1;
        return;
    }
    cross_checks(g, 0);
    cross_checks(g, 1);
    int n_units = 0;
    for (int p = 0; p < 2; p++) {
        for (int r = 0; r < SIZE; r++) {
            for (int c = 0; c < SIZE; c++) {
                int anchor = opening ? (r == 7 && c == 7) : is_anchor(g, p, r, c);
                if (!anchor) continue;
                Unit *u = &units[n_units++];
                u->p = (uint8_t)p;
                u->r = (uint8_t)r;
                u->anchor = (uint8_t)c;
                u->bound = 0;
            }
        }
    }
    if (g->top) {
        int vals[MAX_TILES] = {0}, nv = 0;
        for (int t = 1; t < 27; t++)
            for (int k = 0; k < g->rack[t]; k++) {
                int v = g->values[t], j = nv++;
                while (j > 0 && vals[j - 1] < v) {
                    vals[j] = vals[j - 1];
                    j--;
                }
                vals[j] = v;
            }
        for (int i = 0; i < n_units; i++) units[i].bound = unit_bound(g, &units[i], vals, opening);
        qsort(units, (size_t)n_units, sizeof(Unit), unit_by_bound);
    }
    for (int i = 0; i < n_units && !g->failed; i++) {
        if (g->top && (units[i].bound == INT32_MIN || threshold_reached(g, units[i].bound))) break;
        search_unit(g, &units[i], opening);
    }
    free(units);
    if (!g->failed) qsort(g->recs, g->n_recs, sizeof(Rec), rec_order);
}

/* ---- Every play as the Solver's rows, written as JSON without the GIL ----
 *
 * A two-blank rack on an empty board has some 96,000 plays. Made into Python
 * objects, grouped and dumped, they held the interpreter for most of a second
 * (the search itself is a tenth of that), so every other thread of the server
 * waited. all_rows instead groups the plays and writes the answer's "plays"
 * array here, as text, in the same order and spelling as api.grouped and
 * json.dumps: one row per placement and spelling, first seen first (the plays
 * are best first), its other blank choices as variants. */

/* What a play keeps, and that leave's worth, per choice of rack tiles it uses:
 * worked out in Python (leaves.leaves_by_use) and copied here, so writing only
 * looks them up. A choice using u[k] of the rack's tiles of kind k (0 blank,
 * 1-26 A-Z) is entry sum(u[k] * stride[k]). */
typedef struct {
    size_t stride[27];
    size_t n;
    char (*text)[MAX_TILES]; /* the leave, NUL padded */
    double *worth;
    uint8_t *whole; /* the worth was a Python int: so is the equity, written without ".0" */
} Leaves;

static void free_leaves(Leaves *lv) {
    free(lv->text);
    free(lv->worth);
    free(lv->whole);
}

/* -1 with an exception set when the table does not fit this rack. */
static int read_leaves(Leaves *lv, const Gen *g, const Py_buffer *text, const Py_buffer *worth,
                       const Py_buffer *whole) {
    size_t n = 1;
    for (int t = 0; t < 27; t++) {
        int count = t ? g->rack[t] : g->blanks;
        lv->stride[t] = count ? n : 0;
        n *= (size_t)count + 1;
    }
    if ((size_t)text->len != n * MAX_TILES || (size_t)worth->len != n * sizeof(double) ||
        (size_t)whole->len != n) {
        PyErr_SetString(PyExc_ValueError, "leaves: not one entry per choice of rack tiles");
        return -1;
    }
    lv->n = n;
    lv->text = malloc(n * MAX_TILES);
    lv->worth = (double *)malloc(n * sizeof(double));
    lv->whole = (uint8_t *)malloc(n);
    if (!lv->text || !lv->worth || !lv->whole) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(lv->text, text->buf, n * MAX_TILES);
    memcpy(lv->worth, worth->buf, n * sizeof(double));
    memcpy(lv->whole, whole->buf, n);
    return 0;
}

static size_t leave_index(const Leaves *lv, const Rec *rec) {
    size_t i = 0;
    for (int k = 0; k < rec->n; k++) i += lv->stride[(rec->blanks >> k & 1) ? 0 : rec->t[k]];
    return i;
}

/* A growing text buffer; running out of memory only sets failed (no GIL here). */
typedef struct {
    char *buf;
    size_t len, cap;
    int failed;
} Text;

static int reserve(Text *out, size_t more) {
    if (out->failed) return 0;
    if (out->len + more <= out->cap) return 1;
    size_t cap = out->cap ? out->cap : (size_t)1 << 16;
    while (cap < out->len + more) cap *= 2;
    char *grown = (char *)realloc(out->buf, cap);
    if (!grown) {
        out->failed = 1;
        return 0;
    }
    out->buf = grown;
    out->cap = cap;
    return 1;
}

static void put(Text *out, const char *s, size_t n) {
    if (!reserve(out, n)) return;
    memcpy(out->buf + out->len, s, n);
    out->len += n;
}

static void put_char(Text *out, char c) { put(out, &c, 1); }

static void put_int(Text *out, long v) {
    char s[24];
    size_t i = sizeof s;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        s[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) s[--i] = '-';
    put(out, s + i, sizeof s - i);
}

/* A JSON string of plain ASCII letters, '?' and words: nothing to escape. */
static void put_string(Text *out, const char *s, size_t n) {
    put_char(out, '"');
    put(out, s, n);
    put_char(out, '"');
}

/* What the Python answer writes for round(score + worth, 1): printf's %.1f
 * rounds the exact binary sum half to even, as round() does, and the digits it
 * prints are then the shortest that read back as that rounded double, which is
 * what repr() prints (-0.0 included). The Python side keeps worths small enough
 * that repr never switches to an exponent. */
static void put_equity(Text *out, int32_t score, double worth, int whole) {
    if (whole) {
        put_int(out, (long)score + (long)worth);
        return;
    }
    char s[48];
    int n = snprintf(s, sizeof s, "%.1f", (double)score + worth);
    if (n <= 0 || (size_t)n >= sizeof s) {
        out->failed = 1;
        return;
    }
    put(out, s, (size_t)n);
}

/* "word",score,"leave",equity -- the part a row and a variant share, after the word. */
static void put_word(Text *out, const Gen *g, const Rec *rec) {
    char word[SIZE];
    size_t len = (size_t)(rec->end - rec->start);
    memcpy(word, g->chars[rec->dir][rec->line] + rec->start, len);
    for (int i = 0; i < rec->n; i++)
        word[rec->sq[i] - rec->start] = (char)(((rec->blanks >> i & 1) ? 'a' : 'A') + rec->t[i] - 1);
    put_string(out, word, len);
}

static void put_leave_and_equity(Text *out, const Leaves *lv, const Rec *rec) {
    size_t i = leave_index(lv, rec);
    const char *leave = lv->text[i];
    size_t len = 0;
    while (len < MAX_TILES && leave[len]) len++;
    put_string(out, leave, len);
    put_char(out, ',');
    put_equity(out, rec->score, lv->worth[i], lv->whole[i]);
}

/* The directions' names, as rules.py spells them. */
typedef struct {
    char name[2][16];
    size_t len[2];
} Directions;

/* ["word",row,col,"direction",score,tiles_used,"leave",equity, -- the variants follow. */
static void put_row_head(Text *out, const Gen *g, const Leaves *lv, const Directions *dirs,
                         const Rec *rec) {
    put_char(out, '[');
    put_word(out, g, rec);
    put_char(out, ',');
    put_int(out, rec->row + 1);
    put_char(out, ',');
    put_int(out, rec->col + 1);
    put_char(out, ',');
    put_string(out, dirs->name[rec->dir], dirs->len[rec->dir]);
    put_char(out, ',');
    put_int(out, rec->score);
    put_char(out, ',');
    put_int(out, rec->n);
    put_char(out, ',');
    put_leave_and_equity(out, lv, rec);
    put_char(out, ',');
}

/* ["word",score,"leave",equity] */
static void put_variant(Text *out, const Gen *g, const Leaves *lv, const Rec *rec) {
    put_char(out, '[');
    put_word(out, g, rec);
    put_char(out, ',');
    put_int(out, rec->score);
    put_char(out, ',');
    put_leave_and_equity(out, lv, rec);
    put_char(out, ']');
}

#define NO_PLAY UINT32_MAX

/* The plays grouped by placement and spelling: a hash table from a play's
 * (direction, line, first and last square, letters placed) to its group --
 * plays covering the same squares place tiles on the same squares, so equal
 * letters there is the same word up to case. Groups are numbered in first-seen
 * order, and each chains its plays in the order found. */
typedef struct {
    uint32_t *slot; /* a group's number + 1; 0: empty */
    size_t mask;
    uint32_t *head, *tail; /* per group: its first play (the row) and its last */
    uint32_t *next;        /* per play: the next play of its group, or NO_PLAY */
    size_t n;
} Groups;

static void free_groups(Groups *gr) {
    free(gr->slot);
    free(gr->head);
    free(gr->tail);
    free(gr->next);
}

static uint64_t spot_hash(const Rec *rec) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    uint8_t key[4] = {rec->dir, rec->line, rec->start, rec->end};
    for (int i = 0; i < 4; i++) h = (h ^ key[i]) * 1099511628211ULL;
    for (int i = 0; i < rec->n; i++) h = (h ^ rec->t[i]) * 1099511628211ULL;
    return h;
}

static int same_spot(const Rec *a, const Rec *b) {
    return a->dir == b->dir && a->line == b->line && a->start == b->start && a->end == b->end &&
           a->n == b->n && memcmp(a->t, b->t, a->n) == 0;
}

/* 0 when out of memory. */
static int group_plays(const Gen *g, Groups *gr) {
    size_t n = g->n_recs, cap = 16;
    while (cap < 2 * n) cap *= 2;
    gr->slot = (uint32_t *)calloc(cap, sizeof(uint32_t));
    gr->head = (uint32_t *)malloc((n ? n : 1) * sizeof(uint32_t));
    gr->tail = (uint32_t *)malloc((n ? n : 1) * sizeof(uint32_t));
    gr->next = (uint32_t *)malloc((n ? n : 1) * sizeof(uint32_t));
    if (!gr->slot || !gr->head || !gr->tail || !gr->next) return 0;
    gr->mask = cap - 1;
    for (size_t i = 0; i < n; i++) {
        const Rec *rec = &g->recs[i];
        size_t s = (size_t)spot_hash(rec) & gr->mask;
        while (gr->slot[s] && !same_spot(&g->recs[gr->head[gr->slot[s] - 1]], rec))
            s = (s + 1) & gr->mask;
        gr->next[i] = NO_PLAY;
        if (gr->slot[s]) {
            uint32_t k = gr->slot[s] - 1;
            gr->next[gr->tail[k]] = (uint32_t)i;
            gr->tail[k] = (uint32_t)i;
        } else {
            gr->head[gr->n] = gr->tail[gr->n] = (uint32_t)i;
            gr->slot[s] = (uint32_t)++gr->n;
        }
    }
    return 1;
}

/* The "plays" array, from the plays g found (sorted best first). */
static void write_rows(Gen *g, const Leaves *lv, const Directions *dirs, Text *out) {
    Groups gr = {0};
    if (!group_plays(g, &gr)) {
        free_groups(&gr);
        g->failed = 1;
        return;
    }
    /* Rows run to 60-100 bytes: one reservation saves most regrowing. */
    reserve(out, gr.n * 96 + 2);
    put_char(out, '[');
    for (size_t k = 0; k < gr.n && !out->failed; k++) {
        if (k) put_char(out, ',');
        uint32_t i = gr.head[k];
        put_row_head(out, g, lv, dirs, &g->recs[i]);
        put_char(out, '[');
        for (uint32_t v = gr.next[i]; v != NO_PLAY; v = gr.next[v]) {
            if (v != gr.next[i]) put_char(out, ',');
            put_variant(out, g, lv, &g->recs[v]);
        }
        put(out, "]]", 2);
    }
    put_char(out, ']');
    free_groups(&gr);
}

/* ---- The Python entry points ---- */

/* A tuple-subclass instance (the NamedTuples Move and NewTile) from new references. */
static PyObject *make_tuple(PyTypeObject *type, allocfunc alloc, PyObject **items, int n) {
    PyObject *obj = alloc(type, n);
    if (!obj) {
        for (int i = 0; i < n; i++) Py_XDECREF(items[i]);
        return NULL;
    }
    int failed = 0;
    for (int i = 0; i < n; i++) {
        if (!items[i]) {
            failed = 1;
            continue;
        }
        if (PyTuple_SetItem(obj, i, items[i]) < 0) failed = 1;
    }
    if (failed) {
        Py_DECREF(obj);
        return NULL;
    }
    /* Plays hold only numbers, strings and other plays' parts: they can never
     * be in a cycle, so the collector need not walk the 40,000 of a two-blank
     * list (CPython untracks such tuples itself, but only when it next collects). */
    PyObject_GC_UnTrack(obj);
    return obj;
}

static PyObject *move_object(const Gen *g, const Rec *rec, PyTypeObject *move_type, allocfunc move_alloc,
                             PyTypeObject *tile_type, allocfunc tile_alloc, PyObject *directions,
                             PyObject *letters) {
    char word[SIZE + 1];
    int len = rec->end - rec->start;
    memcpy(word, g->chars[rec->dir][rec->line] + rec->start, (size_t)len);
    PyObject *tiles = PyTuple_New(rec->n);
    if (!tiles) return NULL;
    for (int i = 0; i < rec->n; i++) {
        int blank = rec->blanks >> i & 1;
        int t = rec->t[i];
        word[rec->sq[i] - rec->start] = (char)((blank ? 'a' : 'A') + t - 1);
        int row = rec->dir ? rec->sq[i] : rec->line;
        int col = rec->dir ? rec->line : rec->sq[i];
        PyObject *letter = PyTuple_GetItem(letters, t);
        Py_XINCREF(letter);
        PyObject *blank_obj = PyBool_FromLong(blank);
        PyObject *items[4] = {PyLong_FromLong(row), PyLong_FromLong(col), letter, blank_obj};
        PyObject *tile = make_tuple(tile_type, tile_alloc, items, 4);
        if (!tile || PyTuple_SetItem(tiles, i, tile) < 0) {
            Py_DECREF(tiles);
            return NULL;
        }
    }
    PyObject_GC_UnTrack(tiles);
    PyObject *direction = PyTuple_GetItem(directions, rec->dir);
    Py_XINCREF(direction);
    PyObject *items[6] = {PyLong_FromLong(rec->row), PyLong_FromLong(rec->col), direction,
                          PyUnicode_FromStringAndSize(word, len), tiles, PyLong_FromLong(rec->score)};
    return make_tuple(move_type, move_alloc, items, 6);
}

static int read_bytes(const Py_buffer *view, Py_ssize_t want, const char *what) {
    if (view->len != want) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", what, want, view->len);
        return -1;
    }
    return 0;
}

/* The first argument of both entry points, a tuple: the word graph, the board,
 * the rule set's tables and the rack (movegen._position). */
typedef struct {
    Py_buffer nodes, board, values, lm, wm, bonus, rack;
} Position;

static void release_position(Position *pos) {
    PyBuffer_Release(&pos->nodes);
    PyBuffer_Release(&pos->board);
    PyBuffer_Release(&pos->values);
    PyBuffer_Release(&pos->lm);
    PyBuffer_Release(&pos->wm);
    PyBuffer_Release(&pos->bonus);
    PyBuffer_Release(&pos->rack);
}

static void free_gen(Gen *g) {
    if (!g) return;
    free(g->recs);
    free(g->heap);
    free(g->bonus);
    free(g);
}

static int read_position(Gen *g, const Position *pos, int *opening);

/* A search state for pos, keeping the top plays (0: all); NULL with an exception
 * set on bad input or no memory. */
static Gen *new_gen(const Position *pos, int top, int *opening) {
    Gen *g = (Gen *)calloc(1, sizeof(Gen));
    if (!g) {
        PyErr_NoMemory();
        return NULL;
    }
    g->top = top;
    if (read_position(g, pos, opening) < 0) {
        free_gen(g);
        return NULL;
    }
    /* Allocated before the GIL is let go, where failing can raise at once. */
    if (top && !(g->heap = (int32_t *)malloc(sizeof(int32_t) * (size_t)top))) {
        PyErr_NoMemory();
        free_gen(g);
        return NULL;
    }
    return g;
}

static int read_position(Gen *g, const Position *pos, int *opening) {
    if (pos->nodes.len % 4 || pos->nodes.len < 4) {
        PyErr_SetString(PyExc_ValueError, "nodes: not a packed word graph");
        return -1;
    }
    if (read_bytes(&pos->board, SIZE * SIZE, "board") || read_bytes(&pos->values, 27, "values") ||
        read_bytes(&pos->lm, SIZE * SIZE, "letter multipliers") ||
        read_bytes(&pos->wm, SIZE * SIZE, "word multipliers") || read_bytes(&pos->rack, 27, "rack"))
        return -1;
    if (pos->bonus.len % (4 * BONUS_WORDS) || pos->bonus.len == 0) {
        PyErr_SetString(PyExc_ValueError, "bonus: bad table size");
        return -1;
    }
    /* The graph is the one argument the search reads in place, without the GIL:
     * the buffer export keeps it alive and unresizable, and a Lexicon's nodes
     * are never written once built (check_graph's one check relies on that too).
     * The rest is copied here, so no other caller's buffer is read unlocked. */
    g->nodes = (const uint32_t *)pos->nodes.buf;
    g->n_nodes = pos->nodes.len / 4;
    g->root = g->nodes[0] & ARC_MASK;
    g->bonus = (int32_t *)malloc((size_t)pos->bonus.len);
    if (!g->bonus) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(g->bonus, pos->bonus.buf, (size_t)pos->bonus.len);
    g->bonus_rows = (int)(pos->bonus.len / (4 * BONUS_WORDS));
    const uint8_t *vb = (const uint8_t *)pos->values.buf, *rb = (const uint8_t *)pos->rack.buf;
    for (int t = 0; t < 27; t++) {
        g->values[t] = vb[t];
        g->rack[t] = rb[t];
        g->rack_total += rb[t];
    }
    g->blanks = g->rack[0];
    g->rack[0] = 0;
    g->rack_mask = 0;
    for (int t = 1; t < 27; t++)
        if (g->rack[t]) g->rack_mask |= 1u << t;
    if (g->blanks) g->rack_mask = ALL_LETTERS;
    if (g->rack_total > MAX_TILES - 1) {
        PyErr_SetString(PyExc_ValueError, "rack too large");
        return -1;
    }
    const uint8_t *bb = (const uint8_t *)pos->board.buf, *lb = (const uint8_t *)pos->lm.buf,
                  *wb = (const uint8_t *)pos->wm.buf;
    *opening = 1;
    for (int r = 0; r < SIZE; r++) {
        for (int c = 0; c < SIZE; c++) {
            uint8_t ch = bb[r * SIZE + c];
            int t = 0, face = 0;
            if (ch >= 'A' && ch <= 'Z') {
                t = ch - 'A' + 1;
                face = g->values[t];
            } else if (ch >= 'a' && ch <= 'z') {
                t = ch - 'a' + 1;
            } else if (ch != '.') {
                PyErr_SetString(PyExc_ValueError, "board: bad square");
                return -1;
            }
            if (t) *opening = 0;
            for (int p = 0; p < 2; p++) {
                int rr = p ? c : r, cc = p ? r : c;
                g->chars[p][rr][cc] = ch;
                g->tiles[p][rr][cc] = (uint8_t)t;
                g->face[p][rr][cc] = face;
                g->lm[p][rr][cc] = lb[r * SIZE + c];
                g->wm[p][rr][cc] = wb[r * SIZE + c];
            }
        }
    }
    return 0;
}

/* No word to play, or no tile to play it with. */
static int nothing_to_search(const Gen *g) { return !g->root || !g->rack_total; }

static PyObject *generate(PyObject *self, PyObject *args) {
    (void)self;
    Position pos = {0};
    int top = 0, opening = 0;
    PyObject *move_obj, *tile_obj, *directions, *letters;
    if (!PyArg_ParseTuple(args, "(y*y*y*y*y*y*y*)iOOOO", &pos.nodes, &pos.board, &pos.values,
                          &pos.lm, &pos.wm, &pos.bonus, &pos.rack, &top, &move_obj, &tile_obj,
                          &directions, &letters))
        return NULL;
    PyObject *result = NULL;
    Gen *g = NULL;
    if (top < 0 || !PyTuple_Check(directions) || PyTuple_Size(directions) != 2 ||
        !PyTuple_Check(letters) || PyTuple_Size(letters) != 27 || !PyType_Check(move_obj) ||
        !PyType_Check(tile_obj)) {
        PyErr_SetString(PyExc_TypeError, "bad arguments to _movegen.generate");
        goto done;
    }
    PyTypeObject *move_type = (PyTypeObject *)move_obj, *tile_type = (PyTypeObject *)tile_obj;
    allocfunc move_alloc = (allocfunc)PyType_GetSlot(move_type, Py_tp_alloc);
    allocfunc tile_alloc = (allocfunc)PyType_GetSlot(tile_type, Py_tp_alloc);
    if (!move_alloc || !tile_alloc) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "Move and NewTile must be types");
        goto done;
    }
    g = new_gen(&pos, top, &opening);
    if (!g) goto done;
    if (nothing_to_search(g)) {
        result = PyList_New(0);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    search(g, opening);
    Py_END_ALLOW_THREADS
    if (g->failed) {
        PyErr_NoMemory();
        goto done;
    }
    size_t keep = g->n_recs;
    if (top && (size_t)top < keep) keep = (size_t)top;
    result = PyList_New((Py_ssize_t)keep);
    if (!result) goto done;
    for (size_t i = 0; i < keep; i++) {
        PyObject *move = move_object(g, &g->recs[i], move_type, move_alloc, tile_type, tile_alloc,
                                     directions, letters);
        if (!move || PyList_SetItem(result, (Py_ssize_t)i, move) < 0) {
            Py_CLEAR(result);
            goto done;
        }
    }

done:
    free_gen(g);
    release_position(&pos);
    return result;
}

/* -1 with an exception set unless directions is a pair of short str. */
static int read_directions(PyObject *directions, Directions *dirs) {
    if (!PyTuple_Check(directions) || PyTuple_Size(directions) != 2) {
        PyErr_SetString(PyExc_TypeError, "directions: expected a pair of names");
        return -1;
    }
    for (int p = 0; p < 2; p++) {
        Py_ssize_t len = 0;
        const char *name = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(directions, p), &len);
        if (!name) return -1;
        if (len <= 0 || (size_t)len >= sizeof dirs->name[p]) {
            PyErr_SetString(PyExc_ValueError, "directions: a name too long");
            return -1;
        }
        memcpy(dirs->name[p], name, (size_t)len);
        dirs->len[p] = (size_t)len;
    }
    return 0;
}

static PyObject *all_rows(PyObject *self, PyObject *args) {
    (void)self;
    Position pos = {0};
    Py_buffer texts = {0}, worths = {0}, whole = {0};
    PyObject *directions;
    if (!PyArg_ParseTuple(args, "(y*y*y*y*y*y*y*)y*y*y*O", &pos.nodes, &pos.board, &pos.values,
                          &pos.lm, &pos.wm, &pos.bonus, &pos.rack, &texts, &worths, &whole,
                          &directions))
        return NULL;
    PyObject *result = NULL;
    Leaves lv = {0};
    Text out = {0};
    Directions dirs = {0};
    int opening = 0;
    Gen *g = NULL;
    if (read_directions(directions, &dirs) < 0) goto done;
    g = new_gen(&pos, 0, &opening);
    if (!g || read_leaves(&lv, g, &texts, &worths, &whole) < 0) goto done;
    /* Search, group and write with the GIL let go: all of it reads only g and lv. */
    Py_BEGIN_ALLOW_THREADS
    if (!nothing_to_search(g)) search(g, opening);
    if (!g->failed) write_rows(g, &lv, &dirs, &out);
    Py_END_ALLOW_THREADS
    if (g->failed || out.failed) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *text = PyUnicode_FromStringAndSize(out.buf, (Py_ssize_t)out.len);
    if (text) result = Py_BuildValue("(Nn)", text, (Py_ssize_t)g->n_recs);

done:
    free(out.buf);
    free_leaves(&lv);
    free_gen(g);
    PyBuffer_Release(&texts);
    PyBuffer_Release(&worths);
    PyBuffer_Release(&whole);
    release_position(&pos);
    return result;
}

/* Once per word graph: every arc inside it and its last state closed, so the
 * search never reads past the buffer. */
static PyObject *check_graph(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer nodes = {0};
    if (!PyArg_ParseTuple(args, "y*", &nodes)) return NULL;
    const uint32_t *n = (const uint32_t *)nodes.buf;
    Py_ssize_t count = nodes.len / 4;
    const char *bad = NULL;
    if (nodes.len % 4 || count < 1) bad = "not a packed word graph";
    for (Py_ssize_t i = 0; !bad && i < count; i++)
        if ((n[i] & ARC_MASK) >= (uint32_t)count || (i > 0 && (n[i] >> 24) > 26))
            bad = "an arc points outside the graph";
    if (!bad && count > 1 && !(n[count - 1] & IS_END)) bad = "the last state is not closed";
    PyBuffer_Release(&nodes);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"check_graph", check_graph, METH_VARARGS, "check_graph(nodes): raise ValueError if unsafe."},
    {"generate", generate, METH_VARARGS,
     "generate((nodes, board, values, lm, wm, bonus, rack), top, Move, NewTile, directions, "
     "letters) -> list of Move, best first; top 0 lists every play."},
    {"all_rows", all_rows, METH_VARARGS,
     "all_rows((nodes, board, values, lm, wm, bonus, rack), leave_texts, leave_worths, "
     "leave_whole, directions) -> (JSON text of the rows of every play, number of plays)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_movegen", "The compiled move generator (see movegen.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__movegen(void) { return PyModule_Create(&module); }
