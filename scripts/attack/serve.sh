# `cutoff serve`'s command line where it cannot listen (sourced by scripts/attack.sh, in its
# shell and scratch folder). Each must end at once with one error line; the warning about a
# non-loopback address comes only once the server listens. What clients send is attacked
# over sockets instead: cli/tests/integration/serve_hostile.rs and scripts/soak.py.

# An address of no interface here (TEST-NET-3), IPv6 included.
attack "serve --host on no interface" $n serve --host 203.0.113.7 --port 0
attack "serve --host IPv6 on no interface" $n serve --host 2001:db8::7 --port 0

# A port another server holds: this binary's own, on a free port, stopped by its process id.
"$bin" serve --port 0 >serve.addr 2>/dev/null &
holder=$!
for _ in $(seq 50); do
  [ -s serve.addr ] && break
  sleep 0.1
done
held=$(sed -n 's|^cutoff serve: http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' serve.addr)
if [ -n "$held" ]; then
  attack "serve --port held by another server" $n serve --port "$held"
else
  echo "SKIP serve --port held by another server: the holder printed no address"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
