/**
 * git's own commands (2.39's `git --list-cmds=main`, and the ones of newer releases): an alias
 * cannot take one of these names (git runs its own command), any other name may be an alias.
 */
export const GIT_COMMANDS: ReadonlySet<string> = new Set(
  (
    'add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr ' +
    'check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick citool ' +
    'clean clone column commit commit-graph commit-tree config count-objects credential ' +
    'credential-cache credential-store daemon describe diagnose diff diff-files diff-index diff-tree ' +
    'difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref ' +
    'for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep gui ' +
    'hash-object help hook http-backend http-fetch http-push imap-send index-pack init init-db ' +
    'instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge ' +
    'merge-base merge-file merge-index merge-one-file merge-tree mergetool mktag mktree ' +
    'multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune ' +
    'prune-packed pull push quiltimport range-diff read-tree rebase receive-pack reflog refs remote ' +
    'repack replace replay request-pull rerere reset restore rev-list rev-parse revert rm send-email ' +
    'send-pack shell shortlog show show-branch show-index show-ref sparse-checkout stage stash status ' +
    'stripspace submodule switch symbolic-ref tag unpack-file unpack-objects update-index update-ref ' +
    'update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag version ' +
    'whatchanged worktree write-tree'
  ).split(' '),
);
