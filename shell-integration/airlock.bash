# airlock shell integration for bash: eval "$(airlock init bash)" in ~/.bashrc.
#
# With bash 4 or later, Enter, C-j and C-o (in the emacs, vi-insert and
# vi-command keymaps) first run `airlock judge` on the whole line through
# `bind -x`, then accept it only if it may run: allowed lines run exactly as
# typed, risky ones ask inline first, forbidden ones stay in the buffer.
# C-x C-e opens the line in your editor and brings it back for Enter to
# judge, instead of running it unjudged. Every name defined here starts
# with _airlock or AIRLOCK_ (plus the `airlock` function, which switches
# modes). Loading this twice changes nothing.
#
# bash 3.2 (macOS's /bin/bash) has no READLINE_LINE, so it gets a weaker
# fallback: a DEBUG trap judges each simple command as it is about to run
# and skips it when it is forbidden or declined. It sees commands one at a
# time, not the whole line, and cannot bring a skipped line back for editing.

if [[ -z ${_airlock_loaded-} ]]; then
_airlock_loaded=1
_airlock_bin=@AIRLOCK_BIN@
_airlock_mode=${AIRLOCK_MODE:-@AIRLOCK_DEFAULT_MODE@}
_airlock_pending=
_airlock_pending_token=
_airlock_verdict=
_airlock_token=
AIRLOCK_PROMPT=

# Every shell is its own session: "yes for this session" means this shell.
if [[ ${_airlock_session_pid-} != "$$" ]]; then
  _airlock_session_pid=$$
  export AIRLOCK_SESSION="bash-$$-$(date +%s 2>/dev/null || echo 0)-$RANDOM"
fi

# The terminal, opened once: opening /dev/tty for every line costs time.
if (( BASH_VERSINFO[0] >= 4 )) && { exec {_airlock_tty}<>/dev/tty; } 2>/dev/null; then :; else _airlock_tty=; fi

_airlock_update_prompt() { AIRLOCK_PROMPT="[airlock:$_airlock_mode]"; }
_airlock_update_prompt

# airlock on | guard | off switches this shell's mode; anything else is
# the airlock command.
airlock() {
  case ${1-} in
    on|guard|off)
      _airlock_mode=$1
      _airlock_update_prompt
      printf 'airlock: %s for this shell\n' "$1"
      ;;
    *)
      if [[ ! -x $_airlock_bin ]]; then
        printf "airlock: %s is missing; reinstall it, or run 'airlock off'\n" "$_airlock_bin" >&2
        return 127
      fi
      "$_airlock_bin" "$@"
      ;;
  esac
}

# _airlock_decide sets _airlock_verdict to native, sandbox, keep or
# incomplete for a line, asking airlock judge (which may show the inline
# prompt on the terminal).
_airlock_decide() {
  local line=$1 w rc first
  local -a words defs
  _airlock_token=
  if [[ ${AIRLOCK_SHELL-} == off || -z ${line//[[:space:]]/} ]]; then
    _airlock_verdict=native; return
  fi
  # Split into words without globbing; local - restores the options.
  local - IFS=$' \t\n'
  set -f
  words=($line)
  set +f
  first=${words[0]-}
  # cd, exit and airlock itself are never blocked, so a broken airlock
  # cannot lock you out of your shell.
  case $first in
    cd|exit|logout|airlock)
      case $line in
        *[\;\&\|\`\$\<\>\(\)]*) ;;
        *) _airlock_verdict=native; return ;;
      esac
      ;;
  esac
  if [[ $_airlock_mode == off ]]; then
    ( "$_airlock_bin" judge --shell bash --mode off -- "$line" </dev/null >/dev/null 2>&1 & ) 2>/dev/null
    _airlock_verdict=native; return
  fi
  # Aliases and functions are judged by what they expand to.
  defs=()
  for w in "${words[@]}"; do
    [[ $w == *[!A-Za-z0-9_.:+-]* ]] && continue
    if [[ -n ${BASH_ALIASES[$w]+x} ]]; then defs+=(--alias "$w=${BASH_ALIASES[$w]}"); fi
    if declare -F -- "$w" >/dev/null 2>&1; then
      local body
      body=$(declare -f -- "$w")
      defs+=(--function "$w=${body#*\)}")
    fi
  done
  if [[ ! -x $_airlock_bin ]]; then
    printf "airlock: %s is missing, so this line was not run; reinstall airlock, or run 'airlock off' (or set AIRLOCK_SHELL=off)\n" "$_airlock_bin" >&2
    _airlock_verdict=keep; return
  fi
  # The judge server answers without a new process; when it cannot (it
  # would have to ask, or it is gone), a one-shot judge in the foreground
  # does, and may show the prompt.
  if _airlock_server_judge --shell bash --mode "$_airlock_mode" "${defs[@]}" -- "$line"; then
    return
  fi
  local out
  if [[ -n ${_airlock_tty-} ]]; then
    out=$(exec "$_airlock_bin" judge --shell bash --mode "$_airlock_mode" "${defs[@]}" -- "$line" <&"$_airlock_tty" 2>&"$_airlock_tty")
  else
    out=$(exec "$_airlock_bin" judge --shell bash --mode "$_airlock_mode" "${defs[@]}" -- "$line" </dev/tty 2>/dev/tty)
  fi
  rc=$?
  case $out in
    *"token "*)
      _airlock_token=${out#*token }
      _airlock_token=${_airlock_token%%$'\n'*}
      ;;
  esac
  case $rc in
    0) _airlock_verdict=native ;;
    10) _airlock_verdict=sandbox ;;
    20|21) _airlock_verdict=keep ;;
    30) _airlock_verdict=incomplete ;;
    *)
      printf "airlock: could not judge this line (status %s), so it was not run; run 'airlock off' (or set AIRLOCK_SHELL=off) to go on without airlock\n" "$rc" >&2
      _airlock_verdict=keep
      ;;
  esac
}

# The judge server: started on first use, spoken to through two FIFOs
# opened read-write (so opening never blocks and a dead server cannot raise
# SIGPIPE here). AIRLOCK_NO_SERVER=1 turns it off.
_airlock_q=
_airlock_a=
_airlock_server_pid=
_airlock_server_start() {
  [[ -n $_airlock_q ]] && return 0
  [[ -n ${AIRLOCK_NO_SERVER-} ]] && return 1
  (( BASH_VERSINFO[0] > 4 || BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 1 )) || return 1
  local dir q a
  dir=$(command mktemp -d "${TMPDIR:-/tmp}/airlock-judge.XXXXXX" 2>/dev/null) || return 1
  if ! command mkfifo -m 600 "$dir/q" "$dir/a" 2>/dev/null; then
    command rm -rf -- "$dir"
    return 1
  fi
  exec {q}<>"$dir/q"
  exec {a}<>"$dir/a"
  _airlock_q=$q _airlock_a=$a
  # The server must not hold the FIFOs itself, or it would outlive the
  # shell; nor the shell's terminal.
  (
    exec {q}>&- {a}>&-
    [[ -n ${_airlock_tty-} ]] && exec {_airlock_tty}>&-
    exec "$_airlock_bin" judge --serve "$dir" </dev/null >/dev/null 2>&1 &
  )
  return 0
}
_airlock_server_stop() {
  [[ -n $_airlock_q ]] && exec {_airlock_q}>&-
  [[ -n $_airlock_a ]] && exec {_airlock_a}>&-
  _airlock_q= _airlock_a= _airlock_server_pid=
}
# _airlock_server_judge asks the server; it fails when the server cannot
# settle the line.
_airlock_server_judge() {
  [[ -n ${AIRLOCK_NO_SERVER-} ]] && return 1
  if [[ -n $_airlock_server_pid ]] && ! kill -0 "$_airlock_server_pid" 2>/dev/null; then
    _airlock_server_stop
  fi
  _airlock_server_start || return 1
  local code token msg
  if [[ -z $_airlock_server_pid ]]; then
    if ! IFS=$'\x1f' read -r -t 3 -u "$_airlock_a" code token msg || [[ $code != ready ]]; then
      _airlock_server_stop
      return 1
    fi
    _airlock_server_pid=$token
  fi
  printf '%s\0' "$PWD" "$@" $'\x01' >&"$_airlock_q"
  if ! IFS=$'\x1f' read -r -t 3 -u "$_airlock_a" code token msg; then
    _airlock_server_stop
    return 1
  fi
  [[ -n $msg ]] && printf '%s\n' "$msg" >&2
  case $code in
    0) _airlock_verdict=native ;;
    10) _airlock_verdict=sandbox ;;
    20|125) _airlock_verdict=keep ;;
    30) _airlock_verdict=incomplete ;;
    *) return 1 ;;
  esac
  return 0
}

# _airlock_sandboxed runs the pending line through airlock exec, with the
# aliases and functions it uses defined first, and puts the line as typed
# in history in place of this call.
_airlock_sandboxed() {
  local line=${_airlock_pending:-$1} token=$_airlock_pending_token w prelude=
  local -a words pre
  _airlock_pending= _airlock_pending_token=
  if [[ -o history ]]; then
    builtin history -d -1 2>/dev/null || builtin history -d $((HISTCMD - 1)) 2>/dev/null
    builtin history -s -- "$line"
  fi
  local - IFS=$' \t\n'
  set -f
  words=($line)
  set +f
  for w in "${words[@]}"; do
    [[ $w == *[!A-Za-z0-9_.:+-]* ]] && continue
    if declare -F -- "$w" >/dev/null 2>&1; then prelude+="$(declare -f -- "$w")"$'\n'; fi
    if [[ -n ${BASH_ALIASES[$w]+x} ]]; then prelude+="alias -- $w=$(printf %q "${BASH_ALIASES[$w]}")"$'\n'; fi
  done
  [[ -n $prelude ]] && prelude="shopt -s expand_aliases"$'\n'"$prelude"
  [[ -n $token ]] && pre=(--preapproved "$token")
  "$_airlock_bin" exec "${pre[@]}" --line "$line" -- "${BASH:-bash}" --norc --noprofile -c "$prelude$line"
}

if (( BASH_VERSINFO[0] >= 4 )) && [[ -o emacs || -o vi ]]; then
  # Enter runs C-x C-a (judge) then C-x C-b, which the judge rebinds to
  # accept-line when the line may run and to a redraw when it stays.
  _airlock_then() {
    local km
    for km in emacs vi-insert vi-command; do
      bind -m "$km" "\"\\C-x\\C-b\": $1"
      bind -m "$km" "\"\\C-x\\C-c\": $2"
    done
  }
  _airlock_readline() {
    _airlock_decide "$READLINE_LINE"
    case $_airlock_verdict in
      native) _airlock_then accept-line operate-and-get-next ;;
      sandbox)
        _airlock_pending=$READLINE_LINE _airlock_pending_token=$_airlock_token
        if (( BASH_VERSINFO[0] > 4 || BASH_VERSINFO[1] >= 4 )); then
          READLINE_LINE="_airlock_sandboxed ${READLINE_LINE@Q}"
        else
          READLINE_LINE="_airlock_sandboxed $(printf %q "$READLINE_LINE")"
        fi
        READLINE_POINT=${#READLINE_LINE}
        _airlock_then accept-line accept-line
        ;;
      incomplete)
        READLINE_LINE+=$'\n'
        READLINE_POINT=${#READLINE_LINE}
        _airlock_then redraw-current-line redraw-current-line
        ;;
      *) _airlock_then redraw-current-line redraw-current-line ;;
    esac
  }
  # C-x C-e: edit the line in $VISUAL/$EDITOR and bring it back to judge.
  _airlock_edit() {
    local tmp
    tmp=$(mktemp "${TMPDIR:-/tmp}/airlock-edit.XXXXXX") || return
    printf '%s\n' "$READLINE_LINE" >"$tmp"
    "${VISUAL:-${EDITOR:-vi}}" "$tmp" </dev/tty >/dev/tty
    READLINE_LINE=$(<"$tmp")
    READLINE_POINT=${#READLINE_LINE}
    rm -f -- "$tmp"
  }
  for _airlock_km in emacs vi-insert vi-command; do
    bind -m "$_airlock_km" -x '"\C-x\C-a": _airlock_readline'
    bind -m "$_airlock_km" -x '"\C-x\C-e": _airlock_edit'
    bind -m "$_airlock_km" '"\C-m": "\C-x\C-a\C-x\C-b"'
    bind -m "$_airlock_km" '"\C-j": "\C-x\C-a\C-x\C-b"'
    bind -m "$_airlock_km" '"\C-o": "\C-x\C-a\C-x\C-c"'
  done
  unset _airlock_km
  _airlock_then accept-line operate-and-get-next
elif (( BASH_VERSINFO[0] < 4 )); then
  # bash 3.2: judge each simple command in a DEBUG trap; a non-zero return
  # with extdebug skips it.
  _airlock_debug() {
    [[ -n ${COMP_LINE-} || ${BASH_COMMAND-} == _airlock_* || ${BASH_COMMAND-} == "$PROMPT_COMMAND" ]] && return 0
    _airlock_decide "$BASH_COMMAND"
    case $_airlock_verdict in
      keep) return 1 ;;
    esac
    return 0
  }
  shopt -s extdebug
  trap '_airlock_debug' DEBUG
fi
fi
