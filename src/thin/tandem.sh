#!/bin/sh
# Tandem's command (docs/server.md). Hooks and the commands agents run every turn are answered by
# the repository's resident server when one is up: bash's built-ins over a loopback port, or one
# `curl` over a unix socket, instead of a Node start. Everything else, and every request the server cannot take, runs the Node program beside
# this file, which starts the server for next time. dist/tandem is generated from
# src/thin/tandem.sh by scripts/build.mjs.
build='@BUILD@'
nl='
'
# What the server needs of the caller's environment; the rest describes nothing Tandem reads.
# scripts/build.mjs fills it in from src/config/forwarded-env.ts (the config table and the clients).
forwarded='@FORWARDED@'

# The Node program beside this file; $0 may be npm's symlink in node_modules/.bin.
node_program() {
  f=$0
  while [ -L "$f" ]; do
    l=$(readlink "$f") || break
    case $l in /*) f=$l ;; *) case $f in */*) f=${f%/*}/$l ;; *) f=$l ;; esac ;; esac
  done
  case $f in */*) js=${f%/*}/tandem.cjs ;; *) js=./tandem.cjs ;; esac
  node=${TANDEM_NODE:-node}
  if ! command -v "$node" >/dev/null 2>&1; then
    printf 'tandem: cannot find Node.js (%s) on PATH; install Node.js 20 or later, or set TANDEM_NODE to its path.\n' "$node" >&2
    exit 127
  fi
}

# The Node path. $1: TANDEM_THIN for it ("start": no server answered, start one); $2: the
# request id when the server may have taken the request (the Node path then asks the store).
# TANDEM_THIN_PID names this process as the caller, as the server is told: a hook's Node runs
# below it, and would otherwise take this short-lived shell for the agent.
run_node() {
  node_program
  thin=$1
  req=$2
  shift 2
  if [ "$reads_stdin" = 1 ]; then
    { printf '%s' "$payload" && { [ -z "${big-}" ] || cat "$big"; }; } | TANDEM_THIN=$thin TANDEM_THIN_PID=$$ TANDEM_THIN_REQUEST=$req "$node" "$js" "$@"
    exit $?
  fi
  TANDEM_THIN=$thin TANDEM_THIN_PID=$$ TANDEM_THIN_REQUEST=$req exec "$node" "$js" "$@"
}

# The repository's common Git directory, found from $PWD as Git would (worktrees, submodules).
common_dir() {
  d=$PWD
  while :; do
    if [ -d "$d/.git" ]; then
      common=$d/.git
      return 0
    fi
    if [ -f "$d/.git" ]; then
      IFS= read -r line <"$d/.git" || return 1
      g=${line#gitdir: }
      case $g in /*) ;; *) g=$d/$g ;; esac
      common=$g
      if [ -f "$g/commondir" ]; then
        IFS= read -r c <"$g/commondir" || return 1
        case $c in /*) common=$c ;; *) common=$g/$c ;; esac
      fi
      return 0
    fi
    case $d in /* | */*) ;; *) return 1 ;; esac
    [ "$d" = / ] && return 1
    d=${d%/*}
    [ -n "$d" ] || d=/
  done
}

# Bash 4 or later can reach the server's loopback port with built-ins (/dev/tcp, read -N), which
# costs far less than starting curl.
speaks_tcp() {
  [ -n "${BASH_VERSION-}" ] && [ "${BASH_VERSINFO-0}" -ge 4 ] 2>/dev/null
}

# Finds a server that may answer, without reading stdin. Sets $tcp (its loopback file) or $sock;
# returns 1 when there is none (the Node path starts one), 3 when none may answer here, 4 when
# bash should ask it instead of this shell.
find_server() {
  [ "${TANDEM_SERVER-}" != 0 ] || return 3
  # Git told to look elsewhere: the server runs Git with its own environment.
  case ${GIT_DIR-}${GIT_WORK_TREE-}${GIT_INDEX_FILE-}${GIT_COMMON_DIR-} in ?*) return 3 ;; esac
  common_dir || return 3
  tcp=
  sock=
  state=$common/tandem
  [ -f "$state/serve.addr" ] || return 1
  if [ "${TANDEM_THIN_TRANSPORT-}" != curl ] && [ -f "$state/serve.tcp" ]; then
    if speaks_tcp; then
      tcp=$state/serve.tcp
      return 0
    fi
    [ -z "${BASH_VERSION-}" ] && command -v bash >/dev/null 2>&1 && return 4
  fi
  command -v curl >/dev/null 2>&1 || return 3
  IFS= read -r sock <"$state/serve.addr" || return 1
  [ -S "$sock" ] || return 1
  return 0
}

# Byte counts need the C locale; the caller's LC_ALL is what the server is told and Node sees.
# sh starts bash under LC_ALL=C, so bash loads no locale files (a dozen opens and maps), and
# hands it the caller's LC_ALL in TANDEM_THIN_LC_ALL ("x" and the value when it was set).
if [ -n "${TANDEM_THIN_LC_ALL+x}" ]; then
  lc_set=${TANDEM_THIN_LC_ALL%"${TANDEM_THIN_LC_ALL#?}"}
  lc_all=${TANDEM_THIN_LC_ALL#x}
  unset TANDEM_THIN_LC_ALL
else
  lc_set=${LC_ALL+x}
  lc_all=${LC_ALL-}
fi
restore_locale() {
  if [ -n "$lc_set" ]; then LC_ALL=$lc_all; else unset LC_ALL; fi
}

# Prints the server's answer and exits with its code; never evaluates it (core/server/thin-protocol.ts):
# `tandem-answer <code> <sep>`, a newline, stdout, sep, stderr, sep, a newline, `tandem-end`. The
# separator occurs in neither output, so each ends at its first occurrence. Returns 2 (lost) for
# anything else, a cut-off answer included. Prefix removals use the parts themselves as literal
# patterns: no `*` before a pattern, which would cost bash a scan per position.
print_answer() {
  case $1 in "tandem-answer "*"$nl"*) ;; *) return 2 ;; esac
  a_rest=${1#*"$nl"}
  a_code=${1%%"$nl"*}
  a_code=${a_code#tandem-answer }
  a_sep=${a_code#* }
  a_code=${a_code%% *}
  case $a_code in '' | *[!0-9]* | ????*) return 2 ;; esac
  case $a_sep in '' | *[!A-Z0-9-]*) return 2 ;; esac
  a_out=${a_rest%%"$a_sep"*}
  a_rest=${a_rest#"$a_out$a_sep"}
  a_err=${a_rest%%"$a_sep"*}
  [ "${a_rest#"$a_err$a_sep"}" = "${nl}tandem-end" ] || return 2
  printf '%s' "$a_out"
  printf '%s' "$a_err" >&2
  exit "$a_code"
}

# Sends the request to the server, which answers by exiting. Returns 1 when there is no server for
# this build, 3 when the server declined (another repository, switched off), 2 when it may have
# taken the request without answering.
ask_server() {
  # The socket's token (decision 0064), where no jail can read it; none from a server before it.
  header=$state/secrets/socket-header
  [ -f "$header" ] || header=/dev/null
  tty=0
  [ -t 1 ] && tty=1
  resp=$(
    {
      printf 'tandem-thin 1\0%s\0%s\0%s\0%s\0' "$build" "$$" "$PWD" "$#"
      for a; do printf '%s\0' "$a"; done
      for n in $forwarded; do
        eval "[ -z \"\${$n+x}\" ] || printf '%s=%s\0' $n \"\$$n\""
      done
      [ "$tty" = 1 ] && printf 'TANDEM_THIN_TTY=1\0'
      printf '\0'
      [ "$reads_stdin" = 1 ] && printf '%s' "$payload" && { [ -z "$big" ] || cat "$big"; }
    } | curl -s --max-time 30 --unix-socket "$sock" -H 'Expect:' -H @"$header" \
      -H 'Content-Type: application/octet-stream' --data-binary @- \
      -w "$nl%{http_code}" http://tandem/ 2>/dev/null
  )
  st=$?
  code=${resp##*"$nl"}
  body=${resp%"$nl"*}
  # Refused before it started: nobody listening, another build, another repository, switched off.
  [ "$st" = 7 ] && return 1
  case $code in 409) return 1 ;; 421 | 503) return 3 ;; esac
  [ "$st" = 0 ] && [ "$code" = 200 ] || return 2
  print_answer "$body"
  return 2
}

# After asking: 1, no server for this build (Node starts one); 2, the server may have taken the
# request (Node asks the store first); else Node answers afresh.
answer_or_node() {
  answered=$1
  shift
  [ "$answered" = 1 ] && no_server_in_jail
  case $answered in
    1) run_node start "" "$@" ;;
    2) run_node 1 "$$" "$@" ;;
    *) run_node 1 "" "$@" ;;
  esac
}

# Help is Node's alone: asking for it starts no server and sends nothing to one.
for a; do
  case $a in
    --) break ;;
    --help | -h)
      node_program
      exec "$node" "$js" "$@"
      ;;
  esac
done

reads_stdin=0
case $1 in
  hook | status | task | release) ;;
  *)
    node_program
    exec "$node" "$js" "$@"
    ;;
esac

# Inside a kernel jail (decision 0064) Tandem's state is read-only, so only the resident server can
# act, and only through the jail's own door: the key the launcher left in secrets/self.
jail_self=
common_dir && [ -f "$common/tandem/secrets/self" ] && jail_self=$common/tandem/secrets/self
no_server_in_jail() {
  [ -n "$jail_self" ] || return 0
  printf 'tandem: this command runs inside the kernel jail, where Tandem acts only through the repository'"'"'s resident server, and none answered; nothing was done. Run it again once an agent'"'"'s hook has started the server (any tool call does), or run it outside the jail.\n' >&2
  exit 1
}

# No server to ask: Node reads the untouched stdin itself (no copy, as fast as calling it directly).
find_server
found=$?
if [ "$found" = 4 ]; then
  TANDEM_THIN_LC_ALL=$lc_set$lc_all
  LC_ALL=C
  export TANDEM_THIN_LC_ALL LC_ALL
  # A non-interactive bash would first source the file BASH_ENV names: none of ours, and slow.
  unset BASH_ENV
  exec bash "$0" "$@"
fi
if [ "$found" != 0 ]; then
  no_server_in_jail
  node_program
  thin=1
  [ "$found" = 1 ] && thin=start
  TANDEM_THIN=$thin exec "$node" "$js" "$@"
fi

# A big payload is copied at the speed of a copy to a private file ($big), removed at exit: sent
# from there, and read again from there by Node should the server not answer.
remove_big_at_exit() {
  trap 'rm -f "$big"' EXIT
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
}
# Makes $big a new private file; returns 1, $big emptied, when none can be made there.
new_big() {
  if (set -C && umask 077 && : >"$big") 2>/dev/null; then
    remove_big_at_exit
    return 0
  fi
  big=
  return 1
}
big_copy_failed() {
  printf 'tandem: could not copy the hook payload to %s; free space there or set TMPDIR to a writable directory.\n' "$big" >&2
  exit 1
}

# sh has no read that stops at a byte count, and its $(...) reads 128 bytes a read(2): the
# payload goes to the file by one cat (held in $payload only when no file can be made).
if [ -z "$tcp" ]; then
  # The jail's door is the loopback port's alone: the socket's header is hidden in the jail.
  no_server_in_jail
  big=
  payload=
  if [ "$1" = hook ]; then
    reads_stdin=1
    big=${TMPDIR:-/tmp}/tandem-payload.$$
    if new_big; then
      cat >>"$big" || big_copy_failed
    else
      payload=$(
        cat
        printf x
      )
      payload=${payload%x}
    fi
  fi
  ask_server "$@"
  answered=$?
  answer_or_node "$answered" "$@"
fi

# Only bash 4 or later reads on from here (with $tcp set): sh has exited above, and a shell parses a
# script one command at a time, so the bash-only syntax below is never parsed by sh.
# The payload, byte for byte. Its first block with bash's read, which starts no process (most
# payloads are a few kB); only a longer one's rest is copied by one cat to a private file ($big),
# sent from there and removed at exit. Bash's read takes a pipe one byte per read(2) and its
# strings copy on every join and print, so a payload held in a variable costs more than linear time.
read_payload_bash() {
  big=
  big_size=0
  IFS= read -r -N 65536 payload || return 0
  big=${TMPDIR:-/tmp}/tandem-payload.$$.$RANDOM$RANDOM
  if new_big; then
    cat >>"$big" || big_copy_failed
    big_size=$(wc -c <"$big") || big_copy_failed
  else
    local rest
    rest=$(
      cat
      printf x
    )
    payload=$payload${rest%x}
  fi
}

# The request, written in three writes (head, fields, body): a chunked HTTP body whose first chunk
# holds the NUL-terminated fields; sizes in bytes (LC_ALL=C). Bash variables cannot hold NUL, so
# the fields go through one printf whose format repeats for each (size, field) pair.
send_request() {
  local f n
  local -a fields=('tandem-thin 1' "$build" "$$" "$PWD" "$#" "$@")
  for n in $forwarded; do
    if [ "$n" = LC_ALL ]; then
      [ -z "$lc_set" ] || fields+=("LC_ALL=$lc_all")
    elif [ -n "${!n+x}" ]; then
      fields+=("$n=${!n}")
    fi
  done
  [ "$tty" = 1 ] && fields+=(TANDEM_THIN_TTY=1)
  fields+=('')
  # One line-free head, then the body in the same printf: bash flushes its output at each newline,
  # and Nagle held every write after the first behind the server's delayed ACK (~40 ms a hook on
  # Linux loopback; decision 0027). Lengths are bytes: the script runs under LC_ALL=C.
  local fmt='' len=0 body=
  [ "$reads_stdin" = 1 ] && body=$payload
  for f in "${fields[@]}"; do
    fmt+='%s\0'
    len=$((len + ${#f} + 1))
  done
  printf "tandem-request %s %d $fmt%s" "$token" "$((len + ${#body} + big_size))" "${fields[@]}" "$body"
  [ -z "$big" ] || cat "$big"
}

# A fresh key and a fresh name for it (decision 0027): bash 5.1's $SRANDOM (getrandom), else the
# letters and digits among 256 bytes of /dev/urandom. Returns 1 when too few came.
new_hello() {
  if [ -n "${SRANDOM-}" ]; then
    key=$SRANDOM$SRANDOM$SRANDOM$SRANDOM$SRANDOM
    name=$$.$SRANDOM$SRANDOM
    return 0
  fi
  local raw
  IFS= read -r -N 256 raw </dev/urandom 2>/dev/null
  raw=${raw//[!A-Za-z0-9]/}
  [ "${#raw}" -ge 40 ] || return 1
  key=${raw:0:28}
  name=$$.${raw:28:12}
}

# ask_server over the loopback port, with bash built-ins alone. Same return codes. The server
# speaks first: the client leaves a fresh key in serve.hello (only this user may enter it), sends
# its name alone, and says nothing more unless the answer is the key. A process that took a stale
# port learns a random name, and cannot answer it (src/server/loopback.ts).
ask_tcp() {
  IFS=' ' read -r port token _ <"$tcp" || return 1
  local hello=${tcp%/*}/serve.hello line greeting
  if [ -n "$jail_self" ]; then
    # The jail's door: its name and the half of its key it sends; the server answers the other half.
    IFS=' ' read -r name ask key _ <"$jail_self" || return 1
    greeting="tandem-jail 1 $name $ask"
  else
    [ -d "$hello" ] && [ -O "$hello" ] && new_hello || return 1
    { printf '%s' "$key" >"$hello/$name"; } 2>/dev/null || return 1
    greeting="tandem-hello 1 $name"
  fi
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  trap '' PIPE
  printf '%s\n' "$greeting" >&3 2>/dev/null
  # Exactly the proof's length: read stops at a byte count in one read(2), where a line costs one
  # read(2) per byte on a socket. Anything else (tandem-unknown, a squatter's words) differs.
  IFS= read -r -t 30 -N $((14 + ${#key})) line <&3
  if [ "$line" != "tandem-proof $key$nl" ]; then
    # Not our server (a stale port now held by someone else): Node starts ours.
    exec 3>&-
    trap - PIPE
    return 1
  fi
  tty=0
  [ -t 1 ] && tty=1
  send_request "$@" >&3 2>/dev/null
  resp=
  while :; do
    IFS= read -r -t 30 -N 65536 part <&3
    st=$?
    resp=$resp$part
    [ "$st" = 0 ] || break
  done
  exec 3>&-
  trap - PIPE
  [ "$st" -gt 128 ] && return 2
  head=${resp%%$'\r\n\r\n'*}
  [ "$head" != "$resp" ] || return 2
  body=${resp#"$head"$'\r\n\r\n'}
  code=${head#HTTP/1.1 }
  code=${code%% *}
  case $code in 409) return 1 ;; 421 | 503) return 3 ;; esac
  [ "$code" = 200 ] || return 2
  # C locale: the bytes print as they are.
  print_answer "$body"
  return 2
}

LC_ALL=C
if [ "$1" = hook ]; then
  reads_stdin=1
  read_payload_bash
fi
ask_tcp "$@"
answered=$?
restore_locale
answer_or_node "$answered" "$@"
