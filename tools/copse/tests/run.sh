#!/bin/sh
# SPDX-License-Identifier: MIT
# The tool's tests (make tool-check, part of make test). Every step prints "ok   ..." or
# "FAIL ..."; the last line is "N passed, M failed".
#
#   run.sh OUT DATA          with, from the environment:
#     TOOL ORACLE READERS    the programs under test and their checkers (mk/tool.mk builds them)
#     EMIT_CC EMIT_FLAGS EMIT_LINK   how to compile the emitted C into a host program
#
# Meshes: a generated one (binary STL, fixed seed) always; suzanne.obj and dungeon.obj from
# DATA when it is there (a "skip" line says so when it is not).
OUT=$1
DATA=$2
HERE=$(dirname "$0")
RB="$HERE/robot" # the robot tests' URDFs
pass=0
fail=0
mkdir -p "$OUT"

ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# check NAME COMMAND...: passes when the command succeeds; its output is shown on failure.
check() {
    label=$1; shift
    if "$@" > "$OUT/last.out" 2>&1; then ok "$label: $(tail -n 1 "$OUT/last.out")"; else bad "$label"; sed 's/^/     /' "$OUT/last.out" | head -20; fi
}
# expect_exit STATUS NAME TEXT COMMAND...: the command must exit with STATUS (docs/tool.md: 1 the
# input or the work failed, 2 a wrong command line) and say TEXT. expect_error: status 1;
# expect_usage: status 2.
expect_exit() {
    want=$1; name=$2; text=$3; shift 3
    "$@" > "$OUT/err.out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ]; then bad "$name: exit status $got, not $want:"; sed 's/^/     /' "$OUT/err.out" | head -5
    elif grep -qF -- "$text" "$OUT/err.out"; then ok "$name: exit $got: $(head -n 1 "$OUT/err.out")"
    else bad "$name: message does not say '$text':"; sed 's/^/     /' "$OUT/err.out"; fi
}
expect_error() { expect_exit 1 "$@"; }
expect_usage() { expect_exit 2 "$@"; }

# ---- point-cloud readers ------------------------------------------------------------------------
mkdir -p "$OUT/readers"
"$READERS" "$OUT/readers" "$DATA" > "$OUT/readers.out" 2>&1
grep -E '^(ok   |FAIL|skip)' "$OUT/readers.out"
pass=$((pass + $(grep -c '^ok   ' "$OUT/readers.out")))
fail=$((fail + $(grep -c '^FAIL' "$OUT/readers.out")))
grep -qE '^[0-9]+ passed, 0 failed$' "$OUT/readers.out" || bad "readers: the program did not finish cleanly"

# ---- one mesh: bake -> .bin / .c, stats, query, svg ------------------------------------------------
# mesh_tests NAME MESH QUERIES SEED
mesh_tests() {
    name=$1; mesh=$2; n=$3; seed=$4; d="$OUT/$name"
    mkdir -p "$d"
    if ! "$TOOL" bake "$mesh" --tree bvh --builder sah --leaf 4 -q -o "$d/tree.bin"; then bad "$name: bake -o .bin"; return; fi
    ok "$name: bake -o tree.bin"
    "$TOOL" stats "$d/tree.bin" --mesh "$mesh" > "$d/stats.txt" 2>&1
    nodes=$(sed -n 's/^nodes *\([0-9]*\) (\([0-9]*\) leaves, \([0-9]*\) internal)$/\1/p' "$d/stats.txt")
    leaves=$(sed -n 's/^nodes *[0-9]* (\([0-9]*\) leaves.*/\1/p' "$d/stats.txt")
    internal=$(sed -n 's/.* leaves, \([0-9]*\) internal)$/\1/p' "$d/stats.txt")
    tris=$(sed -n 's/^tree *3D over \([0-9]*\) triangles.*/\1/p' "$d/stats.txt")
    hist=$(sed -n 's/^leaves *largest [0-9]*;//p' "$d/stats.txt" | awk '{ s = 0; for (i = 2; i <= NF; i += 2) s += $i; print s }')
    node_bytes=$(sed -n 's/^bytes .*; nodes \([0-9]*\) + prims \([0-9]*\) = .*/\1/p' "$d/stats.txt")
    prim_bytes=$(sed -n 's/^bytes .*; nodes \([0-9]*\) + prims \([0-9]*\) = .*/\2/p' "$d/stats.txt")
    if grep -q '^check *OK' "$d/stats.txt" && [ -n "$nodes" ] && [ "$nodes" -gt 0 ] && \
       [ "$nodes" -eq $((leaves + internal)) ] && [ "$leaves" -eq $((internal + 1)) ] && [ "$hist" -eq "$leaves" ] && \
       [ "$node_bytes" -eq $((32 * nodes)) ] && [ "$prim_bytes" -eq $((4 * tris)) ]; then
        ok "$name: stats: check OK, $nodes nodes = $leaves leaves + $internal internal, histogram sums to the leaves, bytes 32 x nodes + 4 x triangles"
    else
        bad "$name: stats inconsistent:"; sed 's/^/     /' "$d/stats.txt"
    fi
    "$ORACLE" queries "$mesh" "$n" "$seed" > "$d/queries.txt"
    "$TOOL" query "$d/tree.bin" --mesh "$mesh" --queries "$d/queries.txt" > "$d/baked.txt" 2>"$d/baked.err"
    "$ORACLE" direct "$mesh" "$d/queries.txt" > "$d/direct.txt" 2>"$d/direct.err"
    "$ORACLE" brute "$mesh" "$d/queries.txt" > "$d/brute.txt" 2>"$d/brute.err"
    hits=$(grep -c ' -> hit \| -> [1-9][0-9]* ids\| -> id=' "$d/direct.txt")
    if [ "$(wc -l < "$d/baked.txt")" -eq "$n" ] && cmp -s "$d/baked.txt" "$d/direct.txt"; then
        ok "$name: $n queries on the baked .bin (copse query) = on a tree built directly ($hits answers not empty)"
    else
        bad "$name: baked .bin and direct build disagree"; diff "$d/baked.txt" "$d/direct.txt" | head -10; cat "$d/baked.err"
    fi
    check "$name: baked answers = brute force" python3 "$HERE/compare.py" "$d/baked.txt" "$d/brute.txt"
    # the one-off form on the command line gives the line of the file
    first=$(head -n 1 "$d/queries.txt")
    # shellcheck disable=SC2086
    "$TOOL" query "$d/tree.bin" --mesh "$mesh" $first > "$d/one.txt" 2>&1
    if [ "$(cat "$d/one.txt")" = "$(head -n 1 "$d/direct.txt")" ]; then ok "$name: copse query $first"
    else bad "$name: one-off query: $(cat "$d/one.txt")"; fi

    # the C emitter: compiled into a host program with every warning an error, C99 and C11
    if "$TOOL" bake "$mesh" --name baked_tree -q -o "$d/baked_tree.c"; then
        for std in c99 c11; do
            # shellcheck disable=SC2086
            if $EMIT_CC -std=$std $EMIT_FLAGS -I"$d" -o "$d/emitted-$std" "$HERE/emitted_main.c" "$d/baked_tree.c" \
                 $EMIT_LINK > "$d/emit-$std.log" 2>&1 && "$d/emitted-$std" "$d/queries.txt" > "$d/emitted-$std.txt" 2>&1 \
               && cmp -s "$d/emitted-$std.txt" "$d/direct.txt"; then
                ok "$name: bake -o .c: the const arrays compiled ($std -Werror), viewed in place, $n answers = direct build"
            else
                bad "$name: emitted C ($std):"; head -20 "$d/emit-$std.log"; diff "$d/emitted-$std.txt" "$d/direct.txt" | head
            fi
        done
        if grep -q "_Alignas(16)" "$d/baked_tree.c" && grep -q "aligned(16)" "$d/baked_tree.c"; then
            ok "$name: the emitted blob is aligned to 16 under C11 and GNU C99"
        else bad "$name: no alignment in the emitted C"; fi
    else
        bad "$name: bake -o .c"
    fi

    # svg: XML with one rect per node and one polygon per triangle; --levels 1: the root alone
    if "$TOOL" svg "$d/tree.bin" --mesh "$mesh" -o "$d/tree.svg" 2> "$d/svg.err"; then
        check "$name: svg parses as XML, $nodes rects (nodes), $tris polygons (triangles)" \
            python3 "$HERE/svg_count.py" "$d/tree.svg" "$nodes" "$tris"
    else bad "$name: svg: $(cat "$d/svg.err")"; fi
    "$TOOL" svg "$d/tree.bin" --plane xy --levels 1 -o "$d/root.svg" 2> "$d/svg.err"
    root_width=$(sed -n 's/^bounds *x \([^ ]*\) to \([^,]*\),.*/\1 \2/p' "$d/stats.txt" | awk '{ printf "%.9g", $2 - $1 }')
    check "$name: svg --levels 1 without --mesh: 1 rect, no polygons, a scale bar as long as its label on the root cell ($root_width wide)" \
        python3 "$HERE/svg_count.py" "$d/root.svg" 1 0 --scale "$root_width"
}

"$ORACLE" stl "$OUT/generated.stl" 3000 77 || bad "generating the STL mesh"
mesh_tests generated "$OUT/generated.stl" 300 101
# the same triangles as binary PLY and glTF: other assimp readers, the same floats, the same blob
for fmt in ply gltf; do
    "$ORACLE" $fmt "$OUT/generated.$fmt" 3000 77 || bad "generating the $fmt mesh"
    if "$TOOL" bake "$OUT/generated.$fmt" -q -o "$OUT/generated-$fmt.bin" && cmp -s "$OUT/generated-$fmt.bin" "$OUT/generated/tree.bin"; then
        ok "generated: the $fmt file of the same triangles bakes into the same blob as the STL, byte for byte"
    else bad "generated: $fmt and STL blobs differ"; fi
done
# ---- vertices joined: one per distinct position, bit for bit ------------------------------------------
# baked_vertices MESH: the vertex count bake reports ("T triangles, V vertices")
baked_vertices() {
    "$TOOL" bake "$1" -o "$OUT/joined.bin" 2>&1 | sed -n 's/.* [0-9]* triangles, \([0-9]*\) vertices$/\1/p'
}
want=$(python3 "$HERE/mesh_gen.py" grid-stl "$OUT/grid.stl" 20 30)
python3 "$HERE/mesh_gen.py" grid-stl "$OUT/grid-ascii.stl" 20 30 ascii > /dev/null
got=$(baked_vertices "$OUT/grid.stl"); cp "$OUT/joined.bin" "$OUT/grid.bin"
got_ascii=$(baked_vertices "$OUT/grid-ascii.stl")
if [ "$got" = "$want" ] && [ "$got_ascii" = "$want" ] && cmp -s "$OUT/joined.bin" "$OUT/grid.bin"; then
    ok "joined: a 20 x 30 grid as binary and ASCII STL (6 corners a square written) loads as its $want vertices, one blob"
else bad "joined: the grid STL loads as $got (binary) and $got_ascii (ASCII) vertices, not $want"; fi
if [ -d "$DATA/robots/kuka_iiwa/meshes" ]; then
    wrong=""
    for stl in "$DATA"/robots/kuka_iiwa/meshes/*.stl; do
        want=$(python3 "$HERE/mesh_gen.py" stl-corners "$stl"); got=$(baked_vertices "$stl")
        [ "$got" = "$want" ] || wrong="$wrong $(basename "$stl"): $got not $want;"
    done
    if [ -z "$wrong" ]; then ok "joined: each iiwa STL loads as its distinct corners (counted bit for bit by mesh_gen.py)"
    else bad "joined: iiwa STLs:$wrong"; fi
else
    echo "skip tool: $DATA/robots/kuka_iiwa/meshes not found: the iiwa STL vertex counts did not run"
fi

# ---- axes: a file's own unless --up; stats says which, and the bounds ------------------------------------
a="$OUT/axes"
mkdir -p "$a"
python3 "$HERE/mesh_gen.py" collada "$a/z.dae" Z_UP # spans x 1, y 2, z 3
# stats_line FILE.bin WORD [ARGS...]: the stats line that starts with WORD, without it
stats_line() { f=$1; w=$2; shift 2; "$TOOL" stats "$f" "$@" 2>&1 | sed -n "s/^$w *//p"; }
if "$TOOL" bake "$a/z.dae" -q -o "$a/z.bin" && "$TOOL" bake "$a/z.dae" --up y -q -o "$a/y.bin" && \
   "$TOOL" bake "$a/z.dae" --up z -q -o "$a/zz.bin"; then
    bz=$(stats_line "$a/z.bin" bounds); az=$(stats_line "$a/z.bin" axes --mesh "$a/z.dae")
    by=$(stats_line "$a/y.bin" bounds); ay=$(stats_line "$a/y.bin" axes --mesh "$a/z.dae" --up y)
    if [ "$bz" = "x 0 to 1, y 0 to 2, z 0 to 3" ] && [ "$az" = "$a/z.dae: the file's own: z up (COLLADA <up_axis>, Y_UP when absent)" ]; then
        ok "axes: a Z_UP COLLADA file keeps its axes (stats: bounds $bz; axes the file's own: z up)"
    else bad "axes: Z_UP COLLADA without --up: bounds '$bz', axes '$az'"; fi
    if [ "$by" = "x 0 to 1, y 0 to 3, z -2 to 0" ] && \
       [ "$ay" = "$a/z.dae: turned to y up from the file's z up (COLLADA <up_axis>, Y_UP when absent): x, y, z are the file's x, z, -y" ]; then
        ok "axes: --up y turns it as assimp would (bounds $by; axes: x, y, z are the file's x, z, -y)"
    else bad "axes: --up y: bounds '$by', axes '$ay'"; fi
    if cmp -s "$a/z.bin" "$a/zz.bin"; then ok "axes: --up z on a Z_UP file bakes the same blob as no --up"
    else bad "axes: --up z on a Z_UP file changed the blob"; fi
    if "$TOOL" bake "$a/z.dae" --up y --name z_tree -q -o "$a/z_tree.c" && \
       grep -qF "/* Axes: turned to y up from the file's z up" "$a/z_tree.h" && grep -qF -- "--up y -o" "$a/z_tree.h"; then
        ok "axes: the emitted header says its axes and the --up it was baked with"
    else bad "axes: the emitted header does not say its axes"; fi
    expect_error "axes: a mesh without the --up the tree was baked with" "give the --up it was baked with" \
        "$TOOL" query "$a/y.bin" --mesh "$a/z.dae" ray 0 5 0 0 -1 0
    expect_error "axes: --up on a file that declares no up axis" "$OUT/grid.stl: the file declares no up axis" \
        "$TOOL" bake "$OUT/grid.stl" --up z -q -o "$a/x.bin"
else bad "axes: baking the Z_UP COLLADA file"; fi
if "$TOOL" bake "$OUT/generated.gltf" --up y -q -o "$a/gltf-y.bin" && cmp -s "$a/gltf-y.bin" "$OUT/generated/tree.bin"; then
    ok "axes: a glTF file is y up (its spec): --up y bakes the same blob"
else bad "axes: glTF --up y changed the blob"; fi
expect_usage "axes: --up x" "--up x: expected y or z" "$TOOL" bake "$a/z.dae" --up x -o "$a/x.bin"
expect_usage "axes: --up on a point cloud" "--up turns a mesh" "$TOOL" bake "$a/cloud.xyz" --tree octree --up z -o "$a/x.bin"
expect_usage "axes: --up without --mesh" "--up turns the --mesh file" "$TOOL" stats "$a/y.bin" --up y

# ---- a bad vertex or index is named: the file, the triangle, the corner ------------------------------
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 0\nf 1 2 3\nf 1 2 4\n' > "$OUT/nan.obj"
expect_error "mesh: a NaN vertex" "$OUT/nan.obj: triangle 1, corner 2 (vertex 5 of mesh 0): non-finite coordinate (nan 0 0)" \
    "$TOOL" bake "$OUT/nan.obj" -q -o "$OUT/x.bin"
printf 'v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n' > "$OUT/inf.obj"
expect_error "mesh: an infinite vertex" "$OUT/inf.obj: triangle 0, corner 1 (vertex 1 of mesh 0): non-finite coordinate (inf 0 0)" \
    "$TOOL" bake "$OUT/inf.obj" -q -o "$OUT/x.bin"
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 7\n' > "$OUT/index.ply"
expect_error "mesh: an index out of range" "$OUT/index.ply: triangle 1 (face 1 of mesh 0), corner 2: vertex index 7 out of range (the mesh has 3 vertices)" \
    "$TOOL" bake "$OUT/index.ply" -q -o "$OUT/x.bin"

if [ -f "$DATA/meshes/suzanne.obj" ]; then
    mesh_tests suzanne "$DATA/meshes/suzanne.obj" 300 202
    mesh_tests dungeon "$DATA/meshes/dungeon.obj" 240 303
else
    echo "skip tool: $DATA/meshes not found: the real-mesh bake tests did not run"
fi

# ---- the generated C names: every one under the prefix --name gives (or the file's name) ------------
n="$OUT/names"
mkdir -p "$n"
if "$TOOL" bake "$OUT/generated.stl" --name upperarm -q -o "$n/upperarm.c" && \
   "$TOOL" bake "$OUT/grid.stl" -q -o "$n/forearm.c"; then # forearm: from the file name
    for std in c99 c11; do
        # shellcheck disable=SC2086
        if $EMIT_CC -std=$std $EMIT_FLAGS -I"$n" -o "$n/two-$std" "$HERE/emitted_two_main.c" "$n/upperarm.c" "$n/forearm.c" \
             $EMIT_LINK > "$n/two-$std.log" 2>&1 && "$n/two-$std" > "$n/two-$std.txt" 2>&1; then
            ok "names: upperarm.c and forearm.c link into one program ($std -Werror), each viewing its tree: $(cat "$n/two-$std.txt")"
        else bad "names: two baked files in one program ($std):"; head -20 "$n/two-$std.log" "$n/two-$std.txt"; fi
    done
    # every global the objects define and every macro the headers define, under its prefix
    strays=""
    for p in upperarm forearm; do
        # shellcheck disable=SC2086
        $EMIT_CC -std=c99 $EMIT_FLAGS -I"$n" -c -o "$n/$p.o" "$n/$p.c"
        P=$(echo "$p" | tr a-z A-Z)
        # (AddressSanitizer adds an __odr_asan.NAME for each)
        strays="$strays$(nm -g --defined-only "$n/$p.o" | awk '{ print $3 }' | grep -v '^__odr_asan\.' | grep -v "^${p}\(_.*\)\?\$" | tr '\n' ' ')"
        strays="$strays$(sed -n 's/^#\(define\|ifndef\) *\([A-Za-z0-9_]*\).*/\2/p' "$n/$p.h" "$n/$p.c" | grep -v "^${P}_" | tr '\n' ' ')"
    done
    syms=$(nm -g --defined-only "$n/upperarm.o" | awk '{ print $3 }' | grep -v '^__odr_asan\.' | tr '\n' ' ')
    if [ -z "$strays" ]; then ok "names: every global symbol (${syms% }) and macro under its file's prefix"
    else bad "names: names outside the prefix: $strays"; fi
else bad "names: bake upperarm.c, forearm.c"; fi
expect_usage "names: --name that is not an identifier" "--name 9lives: not a prefix for the generated C names: it starts with a digit" \
    "$TOOL" bake "$OUT/grid.stl" --name 9lives -o "$n/x.c"
expect_usage "names: --name in the library's space" "--name copse_bvh: not a prefix for the generated C names: copse_ and COPSE_ names are the library's" \
    "$TOOL" bake "$OUT/grid.stl" --name copse_bvh -o "$n/x.c"
expect_usage "names: --name a keyword" "--name int: not a prefix" "$TOOL" bake "$OUT/grid.stl" --name int -o "$n/x.c"
expect_usage "names: --name reserved to C" "--name _tree: not a prefix" "$TOOL" bake "$OUT/grid.stl" --name _tree -o "$n/x.c"
expect_usage "names: a file name that makes no prefix" "'3d', from the file name, is not a prefix for the generated C names: it starts with a digit (give --name IDENT)" \
    "$TOOL" bake "$OUT/grid.stl" -o "$n/3d.c"
expect_usage "names: robot --name" "--name copse: not a prefix" "$TOOL" robot bake "$RB/primitives.urdf" --name copse -o "$n/x.c"

# ---- BSP kinds: a 2D box map, a 3D map of box brushes from a mesh ----------------------------------
b="$OUT/bsp"
mkdir -p "$b"
python3 "$HERE/bsp2_check.py" map 60 7 > "$b/map.txt"
python3 "$HERE/bsp2_check.py" queries 300 8 > "$b/queries.txt"
if "$TOOL" bake "$b/map.txt" --tree bsp2 --depth 10 -q -o "$b/map.bin" && "$TOOL" stats "$b/map.bin" > "$b/stats.txt"; then
    nodes=$(sed -n 's/^nodes *\([0-9]*\) (.*/\1/p' "$b/stats.txt")
    leaves=$(sed -n 's/^nodes *[0-9]* (\([0-9]*\) leaves.*/\1/p' "$b/stats.txt")
    if grep -q '^check *OK' "$b/stats.txt" && [ "$nodes" -eq $((2 * leaves - 1)) ]; then
        ok "bsp2: bake a 60-box map, stats: check OK, $nodes nodes, $leaves leaves"
    else bad "bsp2: stats:"; cat "$b/stats.txt"; fi
    "$TOOL" query "$b/map.bin" --queries "$b/queries.txt" > "$b/answers.txt" 2>&1
    check "bsp2: 300 point, rect and segment2 queries = brute force" \
        python3 "$HERE/bsp2_check.py" judge "$b/map.txt" "$b/answers.txt"
    "$TOOL" svg "$b/map.bin" -o "$b/map.svg" 2> "$b/svg.err"
    check "bsp2: svg parses as XML, one rect per leaf cell ($leaves), one polygon per box (60)" \
        python3 "$HERE/svg_count.py" "$b/map.svg" "$leaves" 60
else bad "bsp2: bake or stats"; fi
if "$TOOL" bake "$b/map.txt" --tree bsp2 --name baked_map -q -o "$b/baked_map.c" && \
   $EMIT_CC -std=c99 $EMIT_FLAGS -I"$b" -c -o "$b/baked_map.o" "$b/baked_map.c" > "$b/cc.log" 2>&1; then
    ok "bsp2: bake -o .c compiles (c99 -Werror)"
else bad "bsp2: emitted C:"; cat "$b/cc.log"; fi
if [ -f "$DATA/meshes/dungeon.obj" ]; then
    if "$TOOL" bake "$DATA/meshes/dungeon.obj" --tree bsp3 -q -o "$b/dungeon.bin" && "$TOOL" stats "$b/dungeon.bin" > "$b/stats3.txt"; then
        nodes=$(sed -n 's/^nodes *\([0-9]*\);.*/\1/p' "$b/stats3.txt")
        leaves=$(sed -n 's/^nodes .*leaves \([0-9]*\) solid, \([0-9]*\) mixed, \([0-9]*\) empty$/\1 \2 \3/p' "$b/stats3.txt" \
                 | awk '{ print $1 + $2 + $3 }')
        if grep -q '^check *OK' "$b/stats3.txt" && [ "$leaves" -eq $((nodes + 1)) ]; then
            ok "bsp3: dungeon.obj as box brushes, stats: check OK, $nodes nodes, $leaves leaves"
        else bad "bsp3: stats:"; cat "$b/stats3.txt"; fi
    else bad "bsp3: bake or stats of dungeon.obj"; fi
    # svg: one polygon per brush, one rect per solid or mixed leaf, on both drawing planes
    brushes=$(sed -n 's/^tree .* over \([0-9]*\) brushes.*/\1/p' "$b/stats3.txt")
    filled=$(sed -n 's/^nodes .*leaves \([0-9]*\) solid, \([0-9]*\) mixed.*/\1 \2/p' "$b/stats3.txt" | awk '{ print $1 + $2 }')
    for plane in xz xy; do
        if "$TOOL" svg "$b/dungeon.bin" --plane "$plane" -o "$b/d-$plane.svg" 2> "$b/svg3.err"; then
            check "bsp3: svg --plane $plane parses as XML, $filled rects (solid and mixed leaves), $brushes polygons (brushes)" \
                python3 "$HERE/svg_count.py" "$b/d-$plane.svg" "$filled" "$brushes"
        else bad "bsp3: svg --plane $plane: $(cat "$b/svg3.err")"; fi
    done
    expect_usage "bsp3: svg --plane" "--plane zx: expected xz, xy or yz" "$TOOL" svg "$b/dungeon.bin" --plane zx -o "$b/d.svg"
fi
printf 'box 0 0 1 1\nbox 2 2 x 3\n' > "$b/bad.txt"
expect_error "bsp2: a bad map line" "$b/bad.txt:2: expected 'box x0 y0 x1 y1'" "$TOOL" bake "$b/bad.txt" --tree bsp2 -o "$b/x.bin"
expect_usage "bsp2: unknown query" "unknown query 'sphere' on a 2D BSP" "$TOOL" query "$b/map.bin" sphere 1 2 3 4

# ---- octree kinds: point clouds (generated XYZ and PCD, the real scan), a 3D box file -------------
o="$OUT/octree"
mkdir -p "$o"
# octree_tests NAME CLOUD QUERIES SEED [BAKE OPTIONS...]: bake, stats adding up, queries = brute force,
# one-off query, svg. Sets $o/NAME/tree.bin.
octree_tests() {
    name=$1; cloud=$2; n=$3; seed=$4; shift 4; d="$o/$name"
    mkdir -p "$d"
    if ! "$TOOL" bake "$cloud" --tree octree "$@" -q -o "$d/tree.bin"; then bad "$name: bake --tree octree $*"; return; fi
    want=$(grep -cv '^ *\(#\|$\)' "$cloud")
    "$TOOL" stats "$d/tree.bin" > "$d/stats.txt" 2>&1
    points=$(sed -n 's/^points *\([0-9]*\)$/\1/p' "$d/stats.txt")
    nodes=$(sed -n 's/^nodes *\([0-9]*\) (.*/\1/p' "$d/stats.txt")
    leaves=$(sed -n 's/^nodes *[0-9]* (\([0-9]*\) leaves.*/\1/p' "$d/stats.txt")
    internal=$(sed -n 's/.* leaves, \([0-9]*\) internal)$/\1/p' "$d/stats.txt")
    hist=$(sed -n 's/^leaves .*(points count)://p' "$d/stats.txt")
    hist_leaves=$(echo "$hist" | awk '{ s = 0; for (i = 2; i <= NF; i += 2) s += $i; print s }')
    hist_points=$(echo "$hist" | awk '{ s = 0; for (i = 1; i < NF; i += 2) s += $i * $(i + 1); print s }')
    node_bytes=$(sed -n 's/^bytes .*; nodes \([0-9]*\) + buckets.*/\1/p' "$d/stats.txt")
    if grep -q '^check *OK' "$d/stats.txt" && [ "$points" = "$want" ] && [ "$nodes" -eq $((leaves + internal)) ] && \
       [ "$hist_leaves" -eq "$leaves" ] && [ "$hist_points" -eq "$points" ] && [ "$node_bytes" -eq $((36 * nodes)) ]; then
        ok "$name: stats: check OK, $points points (the file's), $nodes nodes = $leaves leaves + $internal internal, histogram sums to the leaves and the points, 36 bytes a node"
    else
        bad "$name: stats inconsistent (want $want points):"; sed 's/^/     /' "$d/stats.txt"
    fi
    "$ORACLE" cloud-queries "$cloud" "$n" "$seed" > "$d/queries.txt"
    "$TOOL" query "$d/tree.bin" --queries "$d/queries.txt" > "$d/baked.txt" 2> "$d/baked.err"
    "$ORACLE" cloud-brute "$cloud" "$d/queries.txt" > "$d/brute.txt" 2> "$d/brute.err"
    check "$name: $n box, sphere, capsule, knn, nearest queries on the blob = brute force (knn, radius sets exactly)" \
        python3 "$HERE/compare.py" "$d/baked.txt" "$d/brute.txt"
    first=$(head -n 1 "$d/queries.txt")
    # shellcheck disable=SC2086
    "$TOOL" query "$d/tree.bin" $first > "$d/one.txt" 2>&1
    if [ "$(cat "$d/one.txt")" = "$(head -n 1 "$d/baked.txt")" ]; then ok "$name: copse query $first"
    else bad "$name: one-off query: $(cat "$d/one.txt")"; fi
    # the bounds line: the points' own bounds, in float
    want_bounds=$(python3 -c "
import struct, sys
f32 = lambda t: struct.unpack('f', struct.pack('f', float(t)))[0]
pts = [[f32(t) for t in l.split()[:3]] for l in open(sys.argv[1]) if l.strip() and not l.lstrip().startswith('#')]
print(', '.join('%s %.9g to %.9g' % ('xyz'[a], min(p[a] for p in pts), max(p[a] for p in pts)) for a in range(3)))" "$cloud")
    if [ "$(sed -n 's/^bounds *//p' "$d/stats.txt")" = "$want_bounds" ]; then ok "$name: stats: bounds $want_bounds, the points'"
    else bad "$name: stats: bounds '$(sed -n 's/^bounds *//p' "$d/stats.txt")', not '$want_bounds'"; fi
    step=$(( (points + 19999) / 20000 ))
    "$TOOL" svg "$d/tree.bin" -o "$d/tree.svg" 2> "$d/svg.err"
    check "$name: svg parses as XML, $nodes rects (cells), $(( (points + step - 1) / step )) circles (points, 1 in $step)" \
        python3 "$HERE/svg_count.py" "$d/tree.svg" "$nodes" 0 $(( (points + step - 1) / step ))
}

"$ORACLE" cloud "$o/generated.xyz" "$o/generated.pcd" 3000 55 || bad "generating the cloud"
octree_tests cloud-xyz "$o/generated.xyz" 400 56
if "$TOOL" bake "$o/generated.pcd" --tree octree -q -o "$o/generated-pcd.bin" && cmp -s "$o/generated-pcd.bin" "$o/cloud-xyz/tree.bin"; then
    ok "cloud: the binary PCD of the same points bakes into the same blob as the XYZ, byte for byte"
else bad "cloud: PCD and XYZ blobs differ"; fi
octree_tests cloud-leaf1 "$o/generated.xyz" 200 57 --leaf 1 --bucket 3 --depth 5
for size in 1 2 3 4 5; do # leaf 4: sizes 1, 2, leaf-1, leaf, leaf+1
    "$ORACLE" cloud "$o/small-$size.xyz" "$o/small-$size.pcd" "$size" $((60 + size)) || bad "generating $size points"
    octree_tests "cloud-$size" "$o/small-$size.xyz" 60 $((70 + size)) --leaf 4
done
if [ -f "$DATA/pointclouds/octomap-scan.xyz" ]; then
    octree_tests scan "$DATA/pointclouds/octomap-scan.xyz" 200 58 --leaf 8
else
    echo "skip tool: $DATA/pointclouds/octomap-scan.xyz not found: the real-scan octree tests did not run"
fi

"$ORACLE" boxes "$o/boxes.txt" 500 81 || bad "generating the box file"
"$ORACLE" box-queries "$o/boxes.txt" 300 82 > "$o/box-queries.txt"
if "$TOOL" bake "$o/boxes.txt" --tree loose -q -o "$o/boxes.bin" && "$TOOL" stats "$o/boxes.bin" > "$o/loose-stats.txt"; then
    objects=$(sed -n 's/^objects *\([0-9]*\) .*/\1/p' "$o/loose-stats.txt")
    lnodes=$(sed -n 's/^nodes *\([0-9]*\) .*/\1/p' "$o/loose-stats.txt")
    if grep -q '^check *OK' "$o/loose-stats.txt" && [ "$objects" -eq 500 ]; then
        ok "loose: bake 500 boxes, stats: check OK, 500 objects in $lnodes nodes"
    else bad "loose: stats:"; cat "$o/loose-stats.txt"; fi
    "$TOOL" query "$o/boxes.bin" --queries "$o/box-queries.txt" > "$o/loose-baked.txt" 2>&1
    "$ORACLE" box-brute "$o/boxes.txt" "$o/box-queries.txt" > "$o/loose-brute.txt"
    check "loose: 300 box, sphere, ray queries on the blob = brute force" \
        python3 "$HERE/compare.py" "$o/loose-baked.txt" "$o/loose-brute.txt"
    "$TOOL" svg "$o/boxes.bin" --plane xy -o "$o/boxes.svg" 2> "$o/svg.err"
    check "loose: svg parses as XML, one rect per node ($lnodes), one polygon per box (500)" \
        python3 "$HERE/svg_count.py" "$o/boxes.svg" "$lnodes" 500
else bad "loose: bake or stats"; fi

# the C emitter: both blobs compiled into one host program, C99 and C11, every warning an error
if "$TOOL" bake "$o/generated.xyz" --tree octree --name baked_cloud -q -o "$o/baked_cloud.c" && \
   "$TOOL" bake "$o/boxes.txt" --tree loose --name baked_boxes -q -o "$o/baked_boxes.c"; then
    for std in c99 c11; do
        # shellcheck disable=SC2086
        if $EMIT_CC -std=$std $EMIT_FLAGS -I"$o" -o "$o/emitted-$std" "$HERE/emitted_octree_main.c" "$o/baked_cloud.c" \
             "$o/baked_boxes.c" $EMIT_LINK > "$o/emit-$std.log" 2>&1 && \
           "$o/emitted-$std" cloud "$o/cloud-xyz/queries.txt" > "$o/emitted-cloud-$std.txt" 2>&1 && \
           "$o/emitted-$std" boxes "$o/box-queries.txt" > "$o/emitted-boxes-$std.txt" 2>&1 && \
           cmp -s "$o/emitted-cloud-$std.txt" "$o/cloud-xyz/baked.txt" && cmp -s "$o/emitted-boxes-$std.txt" "$o/loose-baked.txt"; then
            ok "octree, loose: bake -o .c: both const blobs compiled ($std -Werror), viewed in place, answers = copse query"
        else
            bad "octree, loose: emitted C ($std):"; head -20 "$o/emit-$std.log"
        fi
    done
else bad "octree, loose: bake -o .c"; fi

: > "$o/empty.xyz"
expect_error "octree: an empty cloud" "$o/empty.xyz: no points" "$TOOL" bake "$o/empty.xyz" --tree octree -o "$o/x.bin"
printf '1 2 3\n1 nan 3\n' > "$o/nan.xyz"
expect_error "octree: a NaN" "$o/nan.xyz:2: non-finite coordinate" "$TOOL" bake "$o/nan.xyz" --tree octree -o "$o/x.bin"
expect_usage "octree: --bucket" "--bucket 2000" "$TOOL" bake "$o/generated.xyz" --tree octree --bucket 2000 -o "$o/x.bin"
expect_usage "octree: knn k" "query knn: k 0: expected a whole number" "$TOOL" query "$o/cloud-xyz/tree.bin" knn 1 2 3 0
expect_usage "octree: unknown query" "unknown query 'ray' on a point octree" "$TOOL" query "$o/cloud-xyz/tree.bin" ray 1 2 3 4 5 6
head -c 300 "$o/cloud-xyz/tree.bin" > "$o/cut.bin"
expect_error "octree: truncated blob" "$o/cut.bin: not a copse blob: COPSE_ERR_BLOB_TRUNCATED" "$TOOL" stats "$o/cut.bin"
printf 'box 0 0 0 1 1 1\nbox 2 2 x 3 3 3\n' > "$o/bad.txt"
expect_error "loose: a bad box line" "$o/bad.txt:2: expected 'box x0 y0 z0 x1 y1 z1'" "$TOOL" bake "$o/bad.txt" --tree loose -o "$o/x.bin"
printf 'box 0 0 0 1 1 1\nbox 2 2 2 1 3 3\n' > "$o/inverted.txt"
expect_error "loose: an inverted box" "$o/inverted.txt:2: box 1 (counting from 0) is inverted: x0 2 > x1 1" \
    "$TOOL" bake "$o/inverted.txt" --tree loose -o "$o/x.bin"
printf 'box 0 0 1 1\nbox 2 2 1 3\n' > "$b/inverted.txt"
expect_error "bsp2: an inverted box" "$b/inverted.txt:2: box 1 (counting from 0) is inverted: x0 2 > x1 1" \
    "$TOOL" bake "$b/inverted.txt" --tree bsp2 -o "$b/x.bin"
expect_usage "loose: unknown query" "unknown query 'knn' on a loose octree" "$TOOL" query "$o/boxes.bin" knn 1 2 3 4

# ---- every failure names the file and the problem ----------------------------------------------------
g="$OUT/generated"
expect_error "bake: missing file" "$OUT/missing.obj" "$TOOL" bake "$OUT/missing.obj" -q -o "$OUT/x.bin"
printf 'this is not a mesh\n' > "$OUT/junk.obj"
expect_error "bake: unreadable mesh" "$OUT/junk.obj" "$TOOL" bake "$OUT/junk.obj" -q -o "$OUT/x.bin"
printf '1 2 3\n' > "$OUT/cloud.xyz"
expect_usage "bake: a point cloud as BVH" "$OUT/cloud.xyz: a point cloud" "$TOOL" bake "$OUT/cloud.xyz" -q -o "$OUT/x.bin"
expect_usage "bake: --leaf 0" "--leaf 0: expected 1 to" "$TOOL" bake "$OUT/generated.stl" --leaf 0 -o "$OUT/x.bin"
expect_usage "bake: --builder" "--builder best: expected sah" "$TOOL" bake "$OUT/generated.stl" --builder best -o "$OUT/x.bin"
expect_usage "bake: output kind" "bake needs -o FILE.bin or -o FILE.c" "$TOOL" bake "$OUT/generated.stl" -o "$OUT/x.txt"
expect_error "stats: not a blob" "$OUT/generated.stl: not a copse blob: COPSE_ERR_BLOB_MAGIC" "$TOOL" stats "$OUT/generated.stl"
head -c 200 "$g/tree.bin" > "$OUT/cut.bin"
expect_error "stats: truncated blob" "$OUT/cut.bin: not a copse blob: COPSE_ERR_BLOB_TRUNCATED" "$TOOL" stats "$OUT/cut.bin"
python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[300]^=1; open(sys.argv[2],'wb').write(b)" \
    "$g/tree.bin" "$OUT/flip.bin"
expect_error "stats: one bit flipped" "$OUT/flip.bin: not a copse blob: COPSE_ERR_BLOB_CRC" "$TOOL" stats "$OUT/flip.bin"
check "40 blobs with random bytes changed and a valid CRC: each refused with a status or accepted, no crash" \
    python3 "$HERE/corrupt.py" "$TOOL" "$g/tree.bin" "$OUT/generated.stl" 40 404
expect_usage "query: no --mesh" "holds the tree, not its mesh" "$TOOL" query "$g/tree.bin" ray 0 0 0 1 0 0
if [ -f "$DATA/meshes/suzanne.obj" ]; then
    expect_error "query: another mesh" "$DATA/meshes/suzanne.obj: 968 triangles, but $g/tree.bin was baked from 3000" \
        "$TOOL" query "$g/tree.bin" --mesh "$DATA/meshes/suzanne.obj" ray 0 0 0 1 0 0
fi
expect_usage "query: unknown" "unknown query 'cone'" "$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" cone 1 2 3
expect_usage "query: arity" "query sphere takes 4 numbers, not 3" "$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" sphere 1 2 3
expect_error "query: 2D query on a 3D tree" "COPSE_ERR_DIMENSION" "$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" rect 0 0 1 1
cp "$g/tree.bin" "$OUT/a&b<c>.bin"
"$TOOL" svg "$OUT/a&b<c>.bin" --levels 2 -o "$OUT/amp.svg" 2> "$OUT/svg.err"
check "svg: a file name with & < > still gives XML (3 rects: 2 levels)" python3 "$HERE/svg_count.py" "$OUT/amp.svg" 3 0
expect_usage "svg: output" "svg needs -o FILE.svg" "$TOOL" svg "$g/tree.bin" -o "$OUT/x.png"

# ---- exit status: 0 done, 1 the input or the work failed, 2 a wrong command line -------------------
for help in "--help" "-h" "help" "bake --help" "query $g/tree.bin -h" "robot --help" "robot help" "robot bake -h"; do
    # shellcheck disable=SC2086
    if "$TOOL" $help > "$OUT/help.out" 2> "$OUT/help.err" && grep -q '^usage:' "$OUT/help.out" && [ ! -s "$OUT/help.err" ]; then
        ok "exit 0: copse $help prints the usage on stdout"
    else bad "copse $help: exit $?, or no usage on stdout"; fi
done
expect_usage "exit 2: no command" "usage:" "$TOOL"
expect_usage "exit 2: an unknown command" "unknown command 'frobnicate'" "$TOOL" frobnicate x.bin
expect_usage "exit 2: an unknown option" "unknown option --frob" "$TOOL" stats "$g/tree.bin" --frob
expect_usage "exit 2: an option without its value" "-o needs a value" "$TOOL" bake "$OUT/generated.stl" -o
expect_usage "exit 2: a count that is not a number" "--leaf abc: not a count" "$TOOL" bake "$OUT/generated.stl" --leaf abc -o "$OUT/x.bin"
expect_usage "exit 2: --depth 0" "--depth 0: expected 1 or more" "$TOOL" bake "$o/boxes.txt" --tree loose --depth 0 -o "$OUT/x.bin"
expect_usage "exit 2: --depth past the cap" "loose: --depth 40: expected 1 to" "$TOOL" bake "$o/boxes.txt" --tree loose --depth 40 -o "$OUT/x.bin"
expect_usage "exit 2: an unknown tree" "--tree kdtree: this tool bakes bvh, bsp2, bsp3, octree and loose" \
    "$TOOL" bake "$OUT/generated.stl" --tree kdtree -o "$OUT/x.bin"
expect_usage "exit 2: no -o" "bake needs -o FILE.bin or -o FILE.c" "$TOOL" bake "$OUT/generated.stl"
expect_usage "exit 2: no input" "stats: which file?" "$TOOL" stats
expect_usage "exit 2: a surplus argument" "stats: unexpected argument extra" "$TOOL" stats "$g/tree.bin" extra
expect_usage "exit 2: two inputs to bake" "bake: unexpected argument" "$TOOL" bake "$OUT/generated.stl" "$OUT/generated.ply" -o "$OUT/x.bin"
expect_usage "exit 2: a query word that is not a number" "query ray: '1x' is not a finite number" \
    "$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" ray 0 0 0 1x 0 0
expect_usage "exit 2: queries on the command line and --queries" "not both" \
    "$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" --queries "$g/queries.txt" ray 0 0 0 1 0 0
expect_usage "exit 2: robot: an option without its value" "--q needs a value" "$TOOL" robot check "$RB/primitives.urdf" --q
expect_usage "exit 2: robot: --allow without a comma" "--allow base: expected two link names" \
    "$TOOL" robot bake "$RB/primitives.urdf" --allow base -o "$OUT/x.bin"
expect_usage "exit 2: robot: --q not a number" "--q: value 1 'abc' is not a number" "$TOOL" robot check "$RB/primitives.urdf" --q "0 abc"
expect_usage "exit 2: robot: a bad --world" "expected MESH@x,y,z,roll,pitch,yaw[,scale]" \
    "$TOOL" robot check "$RB/primitives.urdf" --world "$OUT/generated.stl@1,2"
printf 'ray 0 0 0 1 0 0\nsphere 1 2 3\n' > "$OUT/bad-queries.txt"
expect_error "exit 1: a bad line in a query file (the file is input)" "$OUT/bad-queries.txt:2: the query above" \
    "$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" --queries "$OUT/bad-queries.txt"
expect_error "exit 1: a missing input" "$OUT/missing.bin: cannot open" "$TOOL" stats "$OUT/missing.bin"
expect_error "exit 1: a query the library refuses" "COPSE_ERR_DIMENSION" "$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" rect 0 0 1 1

# ---- several queries on one command line: each starts at a word that is not a number ---------------
head -n 5 "$g/queries.txt" | tr '\n' ' ' > "$OUT/five.txt"
# shellcheck disable=SC2046
"$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" $(cat "$OUT/five.txt") > "$OUT/five.out" 2>&1
if [ "$(wc -l < "$OUT/five.out")" -eq 5 ] && [ "$(cat "$OUT/five.out")" = "$(head -n 5 "$g/direct.txt")" ]; then
    ok "query: the first 5 queries of the file on one command line give its first 5 answer lines"
else bad "query: five queries on one command line:"; sed 's/^/     /' "$OUT/five.out"; fi
"$TOOL" query "$o/cloud-xyz/tree.bin" knn 0 0 0 3 sphere 1 1 1 0.5 nearest -1 -1 -1 > "$OUT/three.out" 2>&1
if [ "$(cut -d' ' -f1 "$OUT/three.out" | tr '\n' ' ')" = "knn sphere nearest " ]; then
    ok "query: knn, sphere and nearest on one command line, on a point octree, answered in order"
else bad "query: three octree queries:"; sed 's/^/     /' "$OUT/three.out"; fi
"$TOOL" query "$g/tree.bin" --mesh "$OUT/generated.stl" ray 0 0 0 1 0 0 sphere 1 2 3 > "$OUT/stop.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q '^ray 0 0 0 1 0 0 -> ' "$OUT/stop.out" && grep -q 'query sphere takes 4 numbers, not 3' "$OUT/stop.out"; then
    ok "query: the answers up to a bad query, then its message, exit 2"
else bad "query: a bad second query: exit $rc:"; sed 's/^/     /' "$OUT/stop.out"; fi

# ---- copse robot: primitives, bad URDFs, the shared robots against a brute-force oracle ------------
r="$OUT/robot"
mkdir -p "$r"
if "$TOOL" robot bake "$RB/primitives.urdf" -q -o "$r/prim.bin" && "$TOOL" robot info "$r/prim.bin" > "$r/prim.txt"; then
    # base: a box (12) and a 16-sided prism (64) merged, and a sphere; a mimic joint; a continuous one
    if grep -q '^link *0 base *triangles *76 *spheres *1 ' "$r/prim.txt" && grep -q 'grip_b .*mimics grip_a' "$r/prim.txt" && \
       grep -q '^variable *0 shoulder *unlimited' "$r/prim.txt" && grep -q '^triangles 112; spheres 1' "$r/prim.txt"; then
        ok "robot: primitives.urdf: box 12 + cylinder 64 triangles merged on one link, a sphere kept as a sphere, mimic and continuous joints"
    else bad "robot: primitives.urdf info:"; sed 's/^/     /' "$r/prim.txt"; fi
else bad "robot: bake primitives.urdf"; fi
expect_error "robot: a missing mesh" "$RB/missing_mesh.urdf: link 'arm': collision mesh 'meshes/no_such_arm.stl' not found" \
    "$TOOL" robot bake "$RB/missing_mesh.urdf" -o "$r/x.bin"
expect_error "robot: an unknown package" "$RB/unknown_package.urdf: link 'base': collision mesh 'package://no_such_package/meshes/base.dae' not found (tried" \
    "$TOOL" robot bake "$RB/unknown_package.urdf" -o "$r/x.bin"
expect_error "robot: a floating joint" "$RB/floating.urdf: joint 'floating_base' (parent link 'world_link', child link 'body') is floating: copse robots take fixed, revolute, continuous and prismatic joints" \
    "$TOOL" robot bake "$RB/floating.urdf" -o "$r/x.bin"
expect_error "robot: a planar joint" "$RB/planar.urdf: joint 'planar_base' (parent link 'world_link', child link 'body') is planar: copse robots take fixed" \
    "$TOOL" robot bake "$RB/planar.urdf" -o "$r/x.bin"
expect_error "robot: malformed XML" "$RB/malformed.urdf: not a valid URDF (urdfdom): " "$TOOL" robot bake "$RB/malformed.urdf" -o "$r/x.bin"
expect_error "robot: two roots" "$RB/two_roots.urdf: not a valid URDF (urdfdom): Failed to find root link: Two root links found: [base_a] and [base_b]" \
    "$TOOL" robot bake "$RB/two_roots.urdf" -o "$r/x.bin"
expect_error "robot: a kinematic loop" "$RB/cycle.urdf: link 'b' is reached twice (a kinematic loop" "$TOOL" robot bake "$RB/cycle.urdf" -o "$r/x.bin"
expect_error "robot: a mimic of a fixed joint" "$RB/mimic_fixed.urdf: joint 'follower' (child link 'finger') mimics 'mount', a fixed joint" \
    "$TOOL" robot bake "$RB/mimic_fixed.urdf" -o "$r/x.bin"
expect_error "robot: a vertex past float" "$RB/huge_box.urdf: link 'slab': vertex 0 of its collision mesh (-5e+38 -0.5 -0.5) is not finite" \
    "$TOOL" robot bake "$RB/huge_box.urdf" -o "$r/x.bin"
expect_error "robot: --q out of limits" "--q: value 1 (0.2) is outside joint 'grip_a''s limits [0, 0.05]" \
    "$TOOL" robot check "$r/prim.bin" --q "0 0.2"
expect_error "robot: --q count" "--q: 1 values for the robot's 2 variables" "$TOOL" robot check "$r/prim.bin" --q "0"
expect_error "robot: not a robot blob" "$OUT/generated/tree.bin: not a valid robot blob" "$TOOL" robot info "$OUT/generated/tree.bin"
expect_usage "robot: bake options on a blob" "a baked robot is read-only" "$TOOL" robot check "$r/prim.bin" --padding 0.1
PANDA="$DATA/robots/panda/panda.urdf"
KUKA="$DATA/robots/kuka_iiwa/model.urdf"
if [ -f "$PANDA" ] && [ -f "$KUKA" ] && [ -f "$DATA/pointclouds/octomap-scan.xyz" ]; then
    "$TOOL" robot bake "$PANDA" -q -o "$r/panda.bin" || bad "robot: bake panda.urdf"
    "$TOOL" robot bake "$KUKA" --spheres 4 -o "$r/kuka.bin" > "$r/kuka-bake.txt" || bad "robot: bake the iiwa --spheres 4"
    if [ "$(grep -c '^spheres .* 4 over' "$r/kuka-bake.txt")" -eq 8 ] && "$TOOL" robot info "$r/kuka.bin" > "$r/kuka.txt" && \
       [ "$(grep -c '(shapes bound the mesh)' "$r/kuka.txt")" -eq 8 ]; then
        ok "robot: iiwa --spheres 4: 4 spheres on each of 8 links, each link's spheres bound its mesh (the core's check)"
    else bad "robot: iiwa spheres:"; cat "$r/kuka-bake.txt" "$r/kuka.txt" | sed 's/^/     /'; fi
    # --never: the pairs that touched in none of the samples become allowed, and only those
    if "$TOOL" robot bake "$PANDA" --never 2000 -o "$r/panda-never.bin" > "$r/never.txt" && \
       "$TOOL" robot info "$r/panda-never.bin" > "$r/never-info.txt" && "$TOOL" robot info "$r/panda.bin" > "$r/plain-info.txt"; then
        n=$(grep -c '^never .* allowed$' "$r/never.txt")
        before=$(sed -n 's/^allowed *\([0-9]*\) of .*/\1/p' "$r/plain-info.txt")
        after=$(sed -n 's/^allowed *\([0-9]*\) of .*/\1/p' "$r/never-info.txt")
        missing=0
        grep '^never .* allowed$' "$r/never.txt" > "$r/never-pairs.txt"
        while read -r _ a b _; do
            grep -qE "^allowed +[0-9]+ $a +[0-9]+ $b\$" "$r/never-info.txt" || missing=$((missing + 1))
            grep -qE "^allowed +[0-9]+ $a +[0-9]+ $b\$" "$r/plain-info.txt" && missing=$((missing + 1))
        done < "$r/never-pairs.txt"
        # link5 and link7 touch in about a tenth of random configurations: they stay checked
        if [ "$n" -gt 0 ] && [ "$after" -eq $((before + n)) ] && [ $missing -eq 0 ] && \
           ! grep -qE '^allowed +[0-9]+ panda_link5 +[0-9]+ panda_link7$' "$r/never-info.txt"; then
            ok "robot: panda --never 2000: $n pairs that never touched are allowed ($before -> $after of 78), link5-link7 still checked"
        else bad "robot: --never: $n reported, allowed $before -> $after, $missing mismatched"; fi
    else bad "robot: bake panda --never 2000"; fi
    expect_usage "robot: --never abc" "--never abc: expected a whole number" "$TOOL" robot bake "$PANDA" --never abc -o "$r/x.bin"
    # --capsule: one capsule a mesh link, holding it (the core's check), a few times tighter than spheres
    if "$TOOL" robot bake "$PANDA" --capsule -o "$r/panda-capsule.bin" > "$r/capsule.txt" && \
       "$TOOL" robot info "$r/panda-capsule.bin" > "$r/capsule-info.txt" && \
       [ "$(grep -c '^capsule .* radius' "$r/capsule.txt")" -eq 11 ] && \
       [ "$(grep -c 'capsules   1 .*(shapes bound the mesh)' "$r/capsule-info.txt")" -eq 11 ]; then
        ok "robot: panda --capsule: a capsule on each of 11 mesh links, each holding its mesh (the core's check)"
    else bad "robot: panda --capsule:"; cat "$r/capsule.txt" | sed 's/^/     /'; fi
    for rb in panda kuka panda-capsule; do
        src=$PANDA; [ $rb = kuka ] && src=$KUKA
        "$ROBOT_ORACLE" "$src" "$r/$rb.bin" "$DATA" "${ROBOT_CONFIGS:-1000}" "${ROBOT_DIST_CONFIGS:-20}" 7 > "$r/oracle-$rb.txt" 2>&1
        sed -n "s/^\(ok   \|FAIL\)/\1$rb: /p" "$r/oracle-$rb.txt"
        pass=$((pass + $(grep -c '^ok   ' "$r/oracle-$rb.txt")))
        fail=$((fail + $(grep -c '^FAIL' "$r/oracle-$rb.txt")))
        grep -qE '^[0-9]+ passed, 0 failed$' "$r/oracle-$rb.txt" || { bad "robot: the $rb oracle did not finish cleanly"; tail -5 "$r/oracle-$rb.txt"; }
    done
    # the oracle can fail: a robot grown by 5 mm is caught
    "$TOOL" robot bake "$PANDA" --padding 0.005 -q -o "$r/padded.bin"
    if "$ROBOT_ORACLE" "$PANDA" "$r/padded.bin" "$DATA" 60 6 7 > "$r/oracle-padded.txt" 2>&1; then
        bad "robot: the oracle passed a robot baked with --padding 0.005"
    else ok "robot: the oracle catches a robot baked with --padding 0.005 ($(grep -c '^FAIL' "$r/oracle-padded.txt") checks fail)"; fi
    # the same robot from the URDF and from the blob, -o .c compiled, check and svg
    q="0 -0.3 0 -2 0 1.9 0.8 0.02"
    w="$DATA/meshes/suzanne.obj@0.6,0,0.2,0,0,0,0.15"
    "$TOOL" robot check "$PANDA" --world "$w" --q "$q" --max-distance 0.2 > "$r/check-urdf.txt" 2>&1
    "$TOOL" robot check "$r/panda.bin" --world "$w" --q "$q" --max-distance 0.2 > "$r/check-bin.txt" 2>&1
    if [ "$(tail -n +2 "$r/check-urdf.txt")" = "$(tail -n +2 "$r/check-bin.txt")" ] && grep -q '^collision: ' "$r/check-bin.txt" && \
       [ "$(grep -c '^distance ' "$r/check-bin.txt")" -eq 13 ]; then
        ok "robot: check on panda.urdf = check on panda.bin ($(grep '^collision' "$r/check-bin.txt"), $(grep '^contacts' "$r/check-bin.txt"), 13 links' distances)"
    else bad "robot: check urdf vs bin:"; diff "$r/check-urdf.txt" "$r/check-bin.txt" | head; fi
    if "$TOOL" robot bake "$PANDA" --name panda_robot -q -o "$r/panda_robot.c" && \
       $EMIT_CC -std=c99 $EMIT_FLAGS -I"$r" -c -o "$r/panda_robot.o" "$r/panda_robot.c" > "$r/cc.log" 2>&1 && \
       grep -q 'copse_status panda_robot_view(copse_robot \*robot);' "$r/panda_robot.h" && grep -q 'aligned(16)' "$r/panda_robot.c"; then
        ok "robot: bake -o panda_robot.c compiles (c99 -Werror): the blob 16-aligned, panda_robot_view declared"
    else bad "robot: emitted C:"; head "$r/cc.log"; fi
    if "$TOOL" robot svg "$r/panda.bin" --world "$w" --q "$q" -o "$r/arm.svg" > "$r/svg.txt" 2>&1; then
        polys=$(sed -n 's/.*: \([0-9]*\) polygons, \([0-9]*\) circles.*/\1/p' "$r/svg.txt")
        circles=$(sed -n 's/.*: \([0-9]*\) polygons, \([0-9]*\) circles.*/\2/p' "$r/svg.txt")
        if [ "$polys" -eq $((3472 + 968)) ]; then
            check "robot: svg parses as XML, 3472 + 968 polygons (arm + suzanne), $circles circles, a scale bar" python3 "$HERE/svg_count.py" "$r/arm.svg" 0 "$polys" "$circles"
            if grep -q '<text id="scale-label"[^>]*>[0-9.e+-]* m</text>' "$r/arm.svg"; then ok "robot: the svg's scale bar is in metres"
            else bad "robot: the svg's scale bar is not labelled in metres"; fi
        else bad "robot: svg polygons $polys"; fi
    else bad "robot: svg: $(cat "$r/svg.txt")"; fi
else
    echo "skip tool: $DATA/robots (panda, kuka_iiwa) or the scan not found: the shared robots' bake and oracle did not run"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
