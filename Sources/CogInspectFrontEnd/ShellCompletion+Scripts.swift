extension ShellCompletion {
    /// For bash 4 or later: `source <(coginspect --completion-script bash)`, or saved as
    /// `~/.local/share/bash-completion/completions/coginspect`.
    static let bash = #"""
        # bash completion for coginspect (coginspect --completion-script bash).
        # Load it with: source <(coginspect --completion-script bash)
        # or save it as ~/.local/share/bash-completion/completions/coginspect
        _coginspect() {
            local cur=$2 prev=$3 IFS=$'\n'
            case $prev in
                -c|--command)
                    COMPREPLY=($(coginspect --complete "${COMP_WORDS[@]:1:COMP_CWORD-1}" "$cur" 2>/dev/null))
                    return ;;
                --completion-script)
                    COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur"))
                    return ;;
                -f|--file)
                    compopt -o filenames
                    COMPREPLY=($(compgen -f -- "$cur"))
                    return ;;
                --until)
                    return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(coginspect --complete "$cur" 2>/dev/null))
                return
            fi
            compopt -o filenames
            COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.cogtrace' -- "$cur"))
        }
        complete -F _coginspect coginspect

        """#

    /// For zsh: saved as `_coginspect` in a directory on `fpath` before `compinit` runs.
    static let zsh = #"""
        #compdef coginspect
        # zsh completion for coginspect (coginspect --completion-script zsh).
        # Save it as _coginspect in a directory on $fpath, e.g. ~/.zfunc with
        # fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc.
        _coginspect() {
            local current=${(Q)PREFIX} previous=${words[CURRENT-1]}
            local -a candidates
            case $previous in
                -f|--file) _files; return ;;
                --until) return 1 ;;
            esac
            if [[ $previous == (-c|--command|--completion-script) || $current == -* ]]; then
                candidates=("${(@f)$(coginspect --complete "${(@)words[2,CURRENT-1]}" "$current" 2>/dev/null)}")
                compadd -- "${(@)candidates:#}"
                return
            fi
            _files -g '*.cogtrace'
        }
        _coginspect "$@"

        """#

    /// For fish: saved as `~/.config/fish/completions/coginspect.fish`.
    static let fish = #"""
        # fish completion for coginspect (coginspect --completion-script fish).
        # Save it as ~/.config/fish/completions/coginspect.fish
        function __coginspect_candidates
            set -l words (commandline -opc)
            set -e words[1]
            # The token as typed, less an opening quote: fish keeps the quote open itself.
            coginspect --complete $words (commandline -ct | string replace -r '^[\'"]' '') 2>/dev/null
        end
        function __coginspect_takes_command
            set -l words (commandline -opc)
            contains -- $words[-1] -c --command --completion-script
        end
        complete -c coginspect -n __coginspect_takes_command -f -a '(__coginspect_candidates)'
        complete -c coginspect -n 'not __coginspect_takes_command' -a '(__coginspect_candidates)'

        """#
}
