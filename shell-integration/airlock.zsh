# airlock shell integration for zsh: eval "$(airlock init zsh)" in ~/.zshrc.
#
# Every line you accept is judged by `airlock judge` before it runs: allowed
# lines run exactly as typed, risky ones ask inline first, forbidden ones
# stay in the buffer. Every name defined here starts with _airlock or
# AIRLOCK_ (plus the `airlock` function, which switches modes). Functions
# run under `emulate -L zsh`, so your options are untouched and restored.
# Loading this twice changes nothing.

if [[ -z ${_airlock_loaded-} ]]; then
typeset -g _airlock_loaded=1
typeset -g _airlock_bin=@AIRLOCK_BIN@
typeset -g _airlock_mode=${AIRLOCK_MODE:-@AIRLOCK_DEFAULT_MODE@}
typeset -g _airlock_judged= _airlock_pending= _airlock_pending_token= _airlock_restore= _airlock_verdict= _airlock_token= _airlock_shown=
typeset -g AIRLOCK_PROMPT=

# Every shell is its own session: "yes for this session" means this shell.
_airlock_new_session() {
  emulate -L zsh
  zmodload -F zsh/datetime p:EPOCHSECONDS 2>/dev/null
  typeset -g _airlock_session_pid=$$
  export AIRLOCK_SESSION="zsh-$$-${EPOCHSECONDS:-0}-$RANDOM"
}
[[ ${_airlock_session_pid-} == $$ ]] || _airlock_new_session

# The terminal, opened once: opening /dev/tty for every line costs time.
typeset -g _airlock_tty=
{ exec {_airlock_tty}<>/dev/tty } 2>/dev/null || _airlock_tty=

_airlock_update_prompt() {
  typeset -g AIRLOCK_PROMPT="[airlock:$_airlock_mode]"
}
_airlock_update_prompt

# airlock on | guard | off switches this shell's mode; anything else is
# the airlock command.
airlock() {
  emulate -L zsh
  case ${1-} in
    on|guard|off)
      _airlock_mode=$1
      _airlock_update_prompt
      print -r -- "airlock: $1 for this shell"
      ;;
    *)
      if [[ ! -x $_airlock_bin ]]; then
        print -ru2 -- "airlock: $_airlock_bin is missing; reinstall it, or run 'airlock off'"
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
  emulate -L zsh
  local line=$1 w rc first
  _airlock_token= _airlock_shown=
  if [[ -n ${AIRLOCK_SHELL-} && $AIRLOCK_SHELL == off ]] || [[ -z ${line//[[:space:]]/} ]]; then
    _airlock_verdict=native; return
  fi
  # cd, exit and airlock itself are never blocked, so a broken airlock
  # cannot lock you out of your shell.
  local -a words=(${(z)line})
  first=${words[1]-}
  if [[ $first == (cd|exit|logout|airlock) && $line != *[\;\&\|\`\$\<\>\(\)]* ]]; then
    _airlock_verdict=native; return
  fi
  if [[ $_airlock_mode == off ]]; then
    # Off only records, without making you wait.
    ( "$_airlock_bin" judge --shell zsh --mode off -- "$line" </dev/null >/dev/null 2>&1 & ) 2>/dev/null
    _airlock_verdict=native; return
  fi
  # Aliases and functions are judged by what they expand to.
  local -a defs
  for w in $words; do
    (( ${+aliases[$w]} )) && defs+=(--alias "$w=${aliases[$w]}")
    (( ${+functions[$w]} )) && defs+=(--function "$w=${functions[$w]}")
  done
  if [[ ! -x $_airlock_bin ]]; then
    print -ru2 -- "airlock: $_airlock_bin is missing, so this line was not run; reinstall airlock, or run 'airlock off' (or set AIRLOCK_SHELL=off)"
    _airlock_shown=1 _airlock_verdict=keep; return
  fi
  # The judge server answers without a new process; when it cannot (it
  # would have to ask, or it is gone), a one-shot judge in the foreground
  # does, and may show the prompt.
  if _airlock_server_judge --shell zsh --mode "$_airlock_mode" $defs -- "$line"; then
    return
  fi
  local out
  if [[ -n $_airlock_tty ]]; then
    out=$(exec "$_airlock_bin" judge --shell zsh --mode "$_airlock_mode" $defs -- "$line" <&$_airlock_tty 2>&$_airlock_tty)
  else
    out=$(exec "$_airlock_bin" judge --shell zsh --mode "$_airlock_mode" $defs -- "$line" </dev/tty 2>/dev/tty)
  fi
  rc=$?
  local -a lines=("${(@f)out}")
  _airlock_shown=${${(M)lines:#shown}:+1}
  _airlock_token=${${(M)lines:#token *}#token }
  case $rc in
    0) _airlock_verdict=native ;;
    10) _airlock_verdict=sandbox ;;
    20|21) _airlock_verdict=keep ;;
    30) _airlock_verdict=incomplete ;;
    *)
      print -ru2 -- "airlock: could not judge this line (status $rc), so it was not run; run 'airlock off' (or set AIRLOCK_SHELL=off) to go on without airlock"
      _airlock_shown=1
      _airlock_verdict=keep
      ;;
  esac
}

# The judge server: started on first use, spoken to through two FIFOs
# opened read-write (so opening never blocks and a dead server cannot raise
# SIGPIPE here). AIRLOCK_NO_SERVER=1 turns it off.
typeset -g _airlock_q= _airlock_a= _airlock_server_pid=
_airlock_server_start() {
  emulate -L zsh
  [[ -n $_airlock_q ]] && return 0
  [[ -n ${AIRLOCK_NO_SERVER-} ]] && return 1
  local dir
  dir=$(command mktemp -d "${TMPDIR:-/tmp}/airlock-judge.XXXXXX" 2>/dev/null) || return 1
  if ! command mkfifo -m 600 "$dir/q" "$dir/a" 2>/dev/null; then
    command rm -rf -- "$dir"
    return 1
  fi
  local q a
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
  emulate -L zsh
  [[ -n $_airlock_q ]] && exec {_airlock_q}>&-
  [[ -n $_airlock_a ]] && exec {_airlock_a}>&-
  _airlock_q= _airlock_a= _airlock_server_pid=
}
# _airlock_server_judge asks the server; it fails when the server cannot
# settle the line.
_airlock_server_judge() {
  emulate -L zsh
  [[ -n ${AIRLOCK_NO_SERVER-} ]] && return 1
  if [[ -n $_airlock_server_pid ]] && ! kill -0 $_airlock_server_pid 2>/dev/null; then
    _airlock_server_stop
  fi
  _airlock_server_start || return 1
  local code token msg
  if [[ -z $_airlock_server_pid ]]; then
    if ! IFS=$'\x1f' read -r -t 3 -u $_airlock_a code token msg || [[ $code != ready ]]; then
      _airlock_server_stop
      return 1
    fi
    _airlock_server_pid=$token
  fi
  print -rn -u $_airlock_q -- "$PWD"$'\0'"${(pj:\0:)@}"$'\0\1\0'
  if ! IFS=$'\x1f' read -r -t 3 -u $_airlock_a code token msg; then
    _airlock_server_stop
    return 1
  fi
  [[ -n $msg ]] && { print -ru2 -- "$msg"; _airlock_shown=1 }
  case $code in
    0) _airlock_verdict=native ;;
    10) _airlock_verdict=sandbox ;;
    20|125) _airlock_verdict=keep ;;
    30) _airlock_verdict=incomplete ;;
    *) return 1 ;;
  esac
  return 0
}

# _airlock_accept judges the buffer, then calls the accepting widget, keeps
# the line for editing, or continues an incomplete line.
_airlock_accept() {
  emulate -L zsh
  local widget=$1
  _airlock_decide "$BUFFER"
  # Below anything airlock printed, draw the prompt and line afresh.
  [[ -n $_airlock_shown ]] && zle -I
  case $_airlock_verdict in
    native)
      _airlock_judged=$BUFFER
      zle $widget
      ;;
    sandbox)
      _airlock_pending=$BUFFER _airlock_pending_token=$_airlock_token
      BUFFER="_airlock_sandboxed ${(qq)BUFFER}"
      _airlock_judged=$BUFFER
      zle $widget
      ;;
    incomplete)
      BUFFER+=$'\n'
      CURSOR=$#BUFFER
      ;;
    *)
      zle reset-prompt
      ;;
  esac
}
_airlock_accept_line() { _airlock_accept .accept-line }
_airlock_accept_and_hold() { _airlock_accept .accept-and-hold }
_airlock_accept_line_and_down_history() { _airlock_accept .accept-line-and-down-history }
_airlock_accept_and_infer_next_history() { _airlock_accept .accept-and-infer-next-history }

# A widget that accepts a line without going through the ones above is
# caught when the line finishes: the line is judged there, and one that
# may not run natively is taken out of the buffer and brought back.
_airlock_line_finish() {
  emulate -L zsh
  [[ $BUFFER == "$_airlock_judged" ]] && { _airlock_judged=; return }
  _airlock_judged=
  _airlock_decide "$BUFFER"
  case $_airlock_verdict in
    native) ;;
    sandbox)
      _airlock_pending=$BUFFER _airlock_pending_token=$_airlock_token
      BUFFER="_airlock_sandboxed ${(qq)BUFFER}"
      ;;
    *)
      _airlock_restore=$BUFFER
      BUFFER=
      ;;
  esac
}
_airlock_line_init() {
  emulate -L zsh
  if [[ -n $_airlock_restore ]]; then
    BUFFER=$_airlock_restore
    CURSOR=$#BUFFER
    _airlock_restore=
  fi
}

# History keeps the line as typed, not the sandbox wrapper.
_airlock_addhistory() {
  emulate -L zsh
  if [[ ${1%%$'\n'} == "_airlock_sandboxed "* && -n $_airlock_pending ]]; then
    print -sr -- "$_airlock_pending"
    return 1
  fi
  return 0
}

# _airlock_sandboxed runs the pending line through airlock exec, with the
# aliases and functions it uses defined first.
_airlock_sandboxed() {
  emulate -L zsh
  local line=${_airlock_pending:-$1} token=$_airlock_pending_token w
  _airlock_pending= _airlock_pending_token=
  local prelude=
  for w in ${(z)line}; do
    (( ${+functions[$w]} )) && prelude+="$(functions -- $w)"$'\n'
    (( ${+aliases[$w]} )) && prelude+="alias -- ${(qq)w}=${(qq)aliases[$w]}"$'\n'
  done
  local -a pre
  [[ -n $token ]] && pre=(--preapproved $token)
  "$_airlock_bin" exec $pre --line "$line" -- ${commands[zsh]:-zsh} -f -c "$prelude$line"
}

_airlock_setup() {
  emulate -L zsh
  zle -N accept-line _airlock_accept_line
  zle -N accept-and-hold _airlock_accept_and_hold
  zle -N accept-line-and-down-history _airlock_accept_line_and_down_history
  zle -N accept-and-infer-next-history _airlock_accept_and_infer_next_history
  autoload -Uz add-zle-hook-widget add-zsh-hook
  add-zle-hook-widget line-finish _airlock_line_finish
  add-zle-hook-widget line-init _airlock_line_init
  add-zsh-hook zshaddhistory _airlock_addhistory
}
_airlock_setup
fi
