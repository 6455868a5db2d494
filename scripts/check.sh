#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: everything "make check" runs, as one KTAP stream on stdout and a
# closing "N passed, N failed" line; exits non-zero on any failure.
#
#   host:  generated files, module build (W=1), sparse, checkpatch, kernel-doc,
#          CLI build (-Werror), unit tests, valgrind on the CLI
#   guest: the kselftest collection (module, netlink, CLI, Ceph), plus the
#          kernel log and taint verdict of that guest run
#
# Each check's full log is in build/check/. Environment:
#   CHECK_GUEST=0       skip the guest (host checks only)
#   CHECK_HOST=0        skip the host checks (guest only)
#   CHECK_TESTS="..."   run_kselftest.sh options for the guest (default: every
#                       test of the main lane in selftests/budget)
#   CHECK_LANES=L,...   the budget's lanes to run without CHECK_TESTS (default
#                       main,install; make check-pkg: pkg)
#   CHECK_SHARD=S       seconds of budget per guest run (default 600)
#   CHECK_BUDGET=debug  the budget column to plan with (default 6.1)
#   CHECK_VM_TIMEOUT=S  one timeout for every guest run instead of the plan's
#   VM_ARGS="..."       extra scripts/vm options (e.g. "-k /path/bzImage")
#   CHECK_SKIP_FAILS=1 a guest test that skips fails (test_leak_99 aside)
#   CHECK_VM=PATH       a stand-in for scripts/vm (the driver's own tests), with
#   CHECK_LIST=FILE     the kselftest-list.txt it is judged against,
#   CHECK_BUDGET_FILE=F the budgets it is planned with, and
#   CHECK_LOGS=DIR      where the logs go (default build/check)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
logs=${CHECK_LOGS:-$top/build/check}
rm -rf "$logs"
mkdir -p "$logs"

pass=0
fail=0
skip=0
n=0

result() {
	local ok=$1 desc=$2 directive=${3:-}
	n=$((n + 1))
	if [[ $directive == SKIP* ]]; then
		skip=$((skip + 1))
		echo "ok $n $desc # $directive"
	elif ((ok)); then
		pass=$((pass + 1))
		echo "ok $n $desc"
	else
		fail=$((fail + 1))
		echo "not ok $n $desc"
	fi
}

# step NAME CMD...: one result for the command's exit status; log tail on failure.
step() {
	local name=$1 log
	shift
	log=$logs/${name//[^A-Za-z0-9_.-]/_}.log
	if "$@" >"$log" 2>&1; then
		result 1 "$name"
	else
		sed 's/^/# /' "$log" | tail -25
		result 0 "$name"
	fi
}

# ktap NAME FILE: one result per KTAP subtest found in a log: top-level
# "ok N" lines of a plain KTAP stream, or the "# ok N" subtests of a
# kselftest runner's scripts; a script that failed without a failing subtest
# (bail out, timeout, crash) counts as one failure.
ktap() {
	local name=$1 file=$2 line desc sub_fail=0 seen_sub=0
	while IFS= read -r line; do
		if [[ $line =~ ^#\ (not\ )?ok\ [0-9]+\ (.*)$ ]]; then
			desc=${BASH_REMATCH[2]}
			seen_sub=1
			if [[ $desc == *"# SKIP"* ]]; then
				result 1 "$name: ${desc%% # SKIP*}" "SKIP${desc##*# SKIP}"
			elif [[ -n ${BASH_REMATCH[1]} ]]; then
				result 0 "$name: $desc"
				sub_fail=1
			else
				result 1 "$name: $desc"
			fi
		elif [[ $line =~ ^(not\ )?ok\ [0-9]+\ (.*)$ ]]; then
			desc=${BASH_REMATCH[2]}
			if [[ $desc == *"# SKIP"* ]]; then
				((seen_sub)) || result 1 "$name: ${desc%% # SKIP*}" "SKIP${desc##*# SKIP}"
			elif [[ -n ${BASH_REMATCH[1]} ]]; then
				((sub_fail)) || result 0 "$name: $desc"
			elif ((!seen_sub)); then
				result 1 "$name: $desc"
			fi
			seen_sub=0
			sub_fail=0
		elif [[ $line =~ ^#\ (.*)$ && ! $line =~ ^#\ +(RUN|OK|PASSED|Totals|Starting|selftests:|timeout\ set) ]]; then
			echo "$line"
		fi
	done <"$file"
}

echo "TAP version 13"

# The packages first, as make demo does, so that make check works on a fresh
# machine on the first try (as root; quick when everything is there).
if [[ -z ${CHECK_VM:-} ]]; then
	if [[ $(id -u) == 0 ]]; then
		step "packages: everything blkload needs is installed (make deps)" scripts/install-deps.sh
	else
		echo "# not root: the package check is skipped (make deps as root installs them)"
	fi
fi

# --- host ---------------------------------------------------------------
host() {
# Scripts the lanes run by path must be executable in the checkout itself
# (git keeps the bit): a 0644 helper fails only when its lane reaches it.
executables() {
	local f bad=0
	while read -r mode f; do
		if [[ $mode != 100755 ]] && head -c2 "$f" | grep -q '^#!'; then
			echo "$f: has a #! line but mode $mode in git"
			bad=1
		fi
	done < <(git ls-files -s scripts selftests .ci | awk '{ print $1, $4 }')
	((!bad))
}
step "scripts with a #! line are executable in git" executables
step "netlink spec: generated uapi header and policy up to date" make -s check-generated
step "netlink spec: valid against the kernel's YNL schema (genetlink-legacy)" \
	/usr/bin/python3 scripts/tests/test_spec.py
step "module builds with W=1, no warnings" scripts/lint.sh w1
step "sparse (C=2) clean" scripts/lint.sh sparse
step "checkpatch --strict clean" scripts/lint.sh checkpatch
step "kernel-doc clean" scripts/lint.sh kernel-doc
step "CLI builds with -Wall -Wextra -Werror" make -s -C userspace WERROR=1
if make -s -C userspace WERROR=1 unit-build >"$logs/unit-build.log" 2>&1; then
	for t in build/tests/test_*; do
		local before_n=$n before_fail=$fail trc=0
		"$t" >"$logs/$(basename "$t").log" 2>&1 || trc=$?
		ktap "unit/$(basename "$t")" "$logs/$(basename "$t").log"
		# A binary that reported nothing, or failed without a failing test, fails.
		if ((n == before_n)); then
			result 0 "unit/$(basename "$t"): reported no test (exit $trc)"
		elif ((trc != 0 && fail == before_fail)); then
			result 0 "unit/$(basename "$t"): exited $trc"
		fi
	done
else
	sed 's/^/# /' "$logs/unit-build.log" | tail -25
	result 0 "unit tests build"
fi

valgrind_cli() {
	local rc
	command -v valgrind >/dev/null || return 0
	for args in "--help" "--version" "help info" "info --help" "nosuch" "-j info" "completion" "run --help"; do
		# shellcheck disable=SC2086
		valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 \
			userspace/blkload $args >/dev/null 2>"$logs/valgrind.tmp"
		rc=$?
		cat "$logs/valgrind.tmp"
		if ((rc == 99)); then
			echo "valgrind errors for: blkload $args"
			return 1
		fi
	done
}
step "valgrind: CLI paths without the module are clean" valgrind_cli

valgrind_unit() {
	local t
	command -v valgrind >/dev/null || return 0
	for t in build/tests/test_*; do
		valgrind -q --trace-children=yes --trace-children-skip='*/sh,*/dash,*/bash,*/fio' \
			--leak-check=full --error-exitcode=99 "$t" \
			>/dev/null 2>"$logs/valgrind.tmp"
		if (($? == 99)) || grep -q "==[0-9]*==" "$logs/valgrind.tmp"; then
			cat "$logs/valgrind.tmp"
			echo "valgrind errors in $t"
			return 1
		fi
	done
}
step "valgrind: unit tests are clean" valgrind_unit
step "policy written once: no check, rw predicate or queue state outside include/blkload" \
	python3 scripts/tests/test_once.py
step "the policy check fails on a duplicate of each kind and on an empty tree" \
	python3 scripts/tests/test_once.py --self-test
step "check driver: the guest verdict fails on a bad exit, a missing test, no test" \
	python3 scripts/tests/test_guest_verdict.py
step "bash completion from the option tables: run --r<TAB>, --rw values, help = completion" \
	scripts/tests/test_completion.sh
step "fio's --parse-only on the host: fio's shapes accepted, what a run refuses refused with its reason" \
	scripts/tests/test_parse_only.sh
step "fio's own example job files (fio-examples): at least the floor reach the device, none has an unknown option" \
	scripts/tests/test_fio_examples.sh
step "the fio-examples check fails without the examples (no verdict from no test)" \
	bash -c '! FIO_EXAMPLES=/nonexistent scripts/tests/test_fio_examples.sh >/dev/null'
step "blkload(8) from the CLI: renders clean, names every command and option" \
	scripts/tests/test_man.sh
step "Debian packages build with Debian's tooling (make deb; installed by test_pkg_02 in the guest (make check-pkg))" \
	make -s deb
step "blkload merge on made-up reports: window rates, waves, startdelay, refusals" \
	python3 scripts/tests/test_merge.py
step "blkload plot: four SVGs with their lines; no chart from a report without IO" \
	scripts/tests/test_plot.sh
}

if [[ ${CHECK_HOST:-1} != 0 ]]; then
	host
fi

# --- guest --------------------------------------------------------------
# The selftests run in guest runs planned from what each test takes
# (selftests/budget, measured; scripts/guest-plan.py): at most CHECK_SHARD
# seconds of budget a run, each run's timeout twice its budget, so no run
# is near its limit on a slower machine. The verdict of each run
# (scripts/guest-verdict.py) cannot pass empty: a guest command that did not
# exit 0, a selected selftest that did not report, a test that reported
# fewer subtests than planned, or no test at all, each fail.
# The install lane's tests (make install, DKMS, dpkg) run depmod five times;
# over Debian's 4000 modules that takes 45-90 s each under emulation, so
# their guest gets a lean module tree of what they load (scripts/vm-modules.sh).
install_modules=(null_blk libcrc32c crc32c_generic configfs)
# The test that ends every guest run (kmemleak's scan; skips without it).
each_test=test_leak_99.sh

guest_run() {
	local k=$1 runs=$2 timeout=$3 budget=$4 lane=$5 sel=$6 vm=${CHECK_VM:-scripts/vm} line
	local out=$logs/vm$k t0=$SECONDS took name="guest run $1/$2" extra=() kver
	rm -rf "$out"
	echo "# $name: $(wc -w <<<"$sel" | awk '{ print $1 / 2 }') $lane tests, budget ${budget} s, timeout ${timeout} s"
	# (Not when VM_ARGS names another kernel or module tree.)
	if [[ $lane == install || $lane == pkg ]] && [[ -z ${CHECK_VM:-} ]] &&
		! [[ " ${VM_ARGS:-} " =~ \ (-M|--modules|-k|--kernel|--kver)\  ]]; then
		kver=$(scripts/kdir.sh --kver "${KDIR:-}")
		if ! scripts/vm-modules.sh "$kver" "$top/build/vm-modules" "${install_modules[@]}" \
			>"$out.mods.log" 2>&1; then
			sed 's/^/# /' "$out.mods.log"
			result 0 "$name: the lean module tree for the install tests"
			return
		fi
		extra=(-M "$top/build/vm-modules" --kver "$kver")
	fi
	# shellcheck disable=SC2086
	"$vm" -t "$timeout" -o "$out" ${VM_ARGS:-} "${extra[@]}" -- \
		scripts/guest-selftests.sh $sel >/dev/null 2>"$out.err"
	vrc=$?
	took=$((SECONDS - t0))
	python3 scripts/guest-verdict.py --output "$out/output" --rc "$out/rc" \
		--list "$list" --select "$sel" --name guest >"$out.verdict" 2>&1
	# (Exit 1 is a failed test; a crash is a traceback, or no verdict at all.)
	if (($? > 1)) || grep -q '^Traceback' "$out.verdict" ||
		! grep -q '^\(not \)\?ok ' "$out.verdict"; then
		sed 's/^/# /' "$out.verdict"
		result 0 "$name: the verdict on its output (scripts/guest-verdict.py)"
	fi
	while IFS= read -r line; do
		if [[ $line == "ok "*"# SKIP"* && $line != *"/$each_test"* &&
			( ${CHECK_SKIP_FAILS:-0} == 1 || ($lane != main && ${CHECK_BUDGET:-6.1} == 6.1) ) ]]; then
			# The install and packaging lanes exist for their tests: on
			# Debian's kernel a skip there is the README's path not taken;
			# so is any skip where CHECK_SKIP_FAILS=1 (make check-rt).
			line=${line#ok }
			result 0 "${line%% # SKIP*} (skipped in the $lane lane: ${line##*# SKIP })"
		elif [[ $line == "ok "*"# SKIP"* ]]; then
			line=${line#ok }
			result 1 "${line%% # SKIP*}" "SKIP ${line##*# SKIP }"
		elif [[ $line == "ok "* ]]; then
			result 1 "${line#ok }"
		elif [[ $line == "not ok "* ]]; then
			result 0 "${line#not ok }"
		fi
	done <"$out.verdict"

	grep -E '^# (not )?ok|^# .*(FAIL|assertion|expected)' "$out/output" 2>/dev/null |
		grep -v '^# ok' | head -40
	grep -h "known report ignored" "$out.err" 2>/dev/null | sed 's/^/# /'
	echo "# $name took $took s of its ${timeout} s ($((100 * took / timeout))%)"
	if ((3 * took > 2 * timeout)); then
		echo "# $name used more than two thirds of its timeout: selftests/budget is stale"
	fi
	if [[ -s $out/splats ]] || ((vrc == 124)) || grep -q "kernel tainted" "$out.err"; then
		sed 's/^/# /' "$out.err" | head -30
		result 0 "$name: finished, kernel log clean (no BUG/WARNING/Oops/lockdep), taint O/E/N only"
	else
		result 1 "$name: finished, kernel log clean (no BUG/WARNING/Oops/lockdep), taint O/E/N only"
	fi
}

guest() {
	local k=0 runs timeout budget sel
	if [[ -z ${CHECK_VM:-} ]]; then
		step "module builds for the guest kernel" make -s module
		step "CLI builds for the guest" make -s userspace
		step "selftests install (kselftest tree)" scripts/ksft-install.sh
	fi
	list=${CHECK_LIST:-build/kselftest/kselftest-list.txt}
	if ! python3 scripts/guest-plan.py --list "$list" --budget "${CHECK_BUDGET_FILE:-selftests/budget}" \
		--column "${CHECK_BUDGET:-6.1}" --select "${CHECK_TESTS:-}" --shard "${CHECK_SHARD:-600}" \
		--each "$each_test" --lanes "${CHECK_LANES:-main,install}" \
		>"$logs/plan" 2>"$logs/plan.err"; then
		sed 's/^/# /' "$logs/plan.err"
		result 0 "guest: runs planned from selftests/budget"
		return
	fi
	runs=$(wc -l <"$logs/plan")
	while read -r timeout budget lane sel <&3; do
		k=$((k + 1))
		guest_run "$k" "$runs" "${CHECK_VM_TIMEOUT:-$timeout}" "$budget" "$lane" "$sel"
	done 3<"$logs/plan"
}

if [[ ${CHECK_GUEST:-1} == 0 ]]; then
	result 1 "guest selftests" "SKIP CHECK_GUEST=0"
else
	guest
fi

echo "1..$n"
echo "$pass passed, $fail failed, $skip skipped"
((fail == 0))
