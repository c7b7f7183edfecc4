#!/usr/bin/env bash
# What a user of the plugin sees, end to end, on a copy of this project (Lathe must be installed:
# mvn -B install in the checkout first). Fails at the first surprise.
#   1. the project builds: its rules are proved, generated, fired, and its pass test passes;
#   2. a rule added to my.rules is generated on the next build and its tests run;
#   3. a broken rule fails the build with its file:line:col;
#   4. a wrong rule fails the build with a counterexample (refuted by the prover), and an
#      inexact one the prover leaves to sampling fails its soundness test;
#   5. the project's jar gives the lathe command its pass: lathe opt --rules-jar JAR --passes mine.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$here/src" "$here/pom.xml" "$here/program.ir" "$work/"
cd "$work"
mvn_() { mvn -B -o -q "$@" > build.log 2>&1; }
fail() { echo "check.sh: $1" >&2; tail -40 build.log >&2; exit 1; }

mvn_ verify || fail "the project does not build"
grep -q "Tests run" target/surefire-reports/*.txt || fail "no tests ran"

# the lathe command of the checkout this project sits in, when there is one (CI: after mvn install)
lathe="$here/../../lathe"
if [ -x "$lathe" ]; then
  "$lathe" opt --rules-jar target/my-shader-rules-1.0-SNAPSHOT.jar --passes mine,dce --rule-stats program.ir > opt.out 2> build.log \
      || fail "lathe opt --rules-jar failed"
  grep -q "ishl" opt.out && ! grep -q "imul" opt.out || { cat opt.out >&2; fail "lathe opt did not run the project's rules"; }
  grep -q "rules of pass mine: 2 rewrites" build.log || fail "lathe opt --rule-stats does not count the project's rules"
fi

echo 'inot_inot: inot(inot(a)) => a;' >> src/main/rules/my.rules
mvn_ verify || fail "a good rule added breaks the build"
grep -q "inot_inot_fires" target/generated-test-sources/lathe/com/example/shaders/rules/MineRulesSoundnessTest.java \
    || fail "the added rule was not generated"
grep -q 'inot_inot' target/surefire-reports/TEST-com.example.shaders.rules.MineRulesSoundnessTest.xml \
    || fail "the added rule's tests did not run"

cp src/main/rules/my.rules good.rules
echo 'broken: iadd(a, 0) => b;' >> src/main/rules/my.rules
if mvn_ verify; then fail "a broken rule did not fail the build"; fi
grep -q "src/main/rules/my.rules:$(wc -l < src/main/rules/my.rules):23: error: the replacement uses b" build.log || fail "the broken rule's error has no file:line:col"

cp good.rules src/main/rules/my.rules
echo 'wrong: ixor(a, 1) => iadd(a, 1);' >> src/main/rules/my.rules
if mvn_ verify; then fail "a wrong rule did not fail the build"; fi
grep -q "rule wrong is unsound at .* bits: a = .*(refuted by the SMT solver)" build.log || fail "no counterexample for the wrong rule"

cp good.rules src/main/rules/my.rules
echo 'wrong_inexact: fmul(a, 2.0) ~=> fadd(a, 1.0);' >> src/main/rules/my.rules
if mvn_ verify; then fail "a wrong inexact rule did not fail the build"; fi
grep -q "rule wrong_inexact is unsound at .* bits: a = " target/surefire-reports/com.example.shaders.rules.MineRulesSoundnessTest.txt \
    || fail "the wrong inexact rule's soundness test did not fail with a counterexample"
echo "check.sh: the external project builds, regenerates, and rejects broken and wrong rules"
