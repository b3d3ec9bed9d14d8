# tour_mask.bash: the Tour run's output made comparable (java_probes.bats;
# its own check in build.bats).
#
# mask_tour JAVA_OUT OUT: OUT (the script's lines) with the run's pid and
# tids, from the program's own "pid N" and "tid NAME=N" lines in JAVA_OUT,
# named where they stand -- "pid=N", "tid=N" and the osTid() call's return
# value, ret="N" -- object ids masked, and the lines grouped by thread (a
# line without tid= stays with the one before it), each group in its own
# order. Only those places: a tid is a small number in a fresh guest (300),
# and an argument of the same value (Tour.check's short 300) is not a tid.
mask_tour() {
	local java_out=$1 out=$2 sed_args=() line tid name
	while read -r line; do
		case $line in
		"pid "*) sed_args+=(-e "s/\bpid=${line#pid }\b/pid=PID/g") ;;
		"tid "*=*)
			tid=${line#*=} name=${line#tid }
			name=${name%%=*}
			case $name in
			main) name=MAIN ;;
			worker-1) name=W1 ;;
			worker-2) name=W2 ;;
			blocker) name=BLOCKER ;;
			*) continue ;;
			esac
			sed_args+=(-e "s/\btid=$tid\b/tid=$name/g" -e "s/ ret=\"$tid\"\$/ ret=\"$name\"/") ;;
		esac
	done <"$java_out"
	sed "${sed_args[@]}" -e 's/#[0-9][0-9]*/#ID/g' -e 's/@[0-9a-f]*#ID/@H#ID/g' "$out" |
		awk '$3 ~ /^tid=/ { g = substr($3, 5) } $3 == "tid>0" { g = "GC" } { n[g]++; line[g, n[g]] = $0; if (!(g in seen)) { seen[g] = 1; order[++k] = g } }
		     END { for (i = 1; i <= k; i++) { g = order[i]; print "== " g; for (j = 1; j <= n[g]; j++) print line[g, j] } }'
}
