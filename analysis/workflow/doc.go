// Package workflow checks Executable Markdown (XMD) workflows statically.
//
// XMD's engine checks a component only when execution reaches it: an
// untaken <If> branch is never checked, {props.typo} renders as empty text,
// and nothing checks that a stage after a <UserCheckpoint> is gated on the
// user's proceed. This package proves those properties as the document is
// written, in every branch.
//
// Parse is a tolerant parser for XMD documents: YAML front matter (props
// in both forms, required, returns, meta, workflow.components) and the
// body's JSX-like tags, attributes, text placeholders and code blocks, with
// spans. The Analyzer resolves every tag, tracks bindings and their scopes
// through <If>, <Each>, <Loop> and component content, and reports the rules
// of spec/workflow.md §2; its Run returns a *Model.
//
// # The workspace
//
// Resolution reads the workspace only through the analysis Env:
//
//   - EnvFS holds an fs.FS rooted at the workflow root folder the edge chose
//     for the document (the CLI and server pass os.DirFS(dir); tests pass an
//     fstest.MapFS);
//   - EnvPath holds the document's slash path inside that FS.
//
// Without EnvFS, names that are neither structural nor registered resolve
// to "unknown" and are never reported as unresolved.
//
//   - EnvComponentDirs optionally holds the folders (slash paths in that
//     FS) component files are searched in, the engine's --component-dir:
//     they replace DefaultComponentDirs;
//   - EnvRegistered optionally holds the names (* matching any run of
//     characters) of components a host registers at run time, in
//     TypeScript, where no static reading sees them.
//
// A name resolves as the engine's resolver decides
// (packages/core/src/components/select.ts): structural syntax; a
// registered component; the workflow bundle; a file N.md, N.ts,
// N/index.md or N/index.ts (a dot in the name is a folder) in each search
// folder in turn (SearchDirs: the configured folders, or components and
// "." and the document's own folder, and for a test document its own folder
// and those above it first); else unresolved. The kind check (Confirm), the
// rules and the editor features all resolve through the same resolver. A repository file answers before a registered default in the
// engine; baton takes the registered one, which only decides whose props
// are checked.
//
// The workflow bundle is the `workflow.components` mapping of a workflow
// root's front matter. A document declaring one is a root, and its bundle
// applies to it. Otherwise, the nearest folder (the document's, then each
// above it) holding a Markdown file whose bundle lists the document makes
// the document a member of that workflow, resolved through the same bundle,
// as the engine does for bundled components. Any other document is resolved
// without a bundle, as `xmd run` does. Bundle paths are normalized against
// the root's folder. Files read through the FS are parsed with Parse and
// cached for the pass only.
package workflow

// EnvFS is the Env key of the workspace: an fs.FS rooted at the workflow
// root folder of the document being analysed.
const EnvFS = "workflow.fs"

// EnvPath is the Env key of the document's slash path relative to the root
// of the EnvFS file system (so its own folder is known).
const EnvPath = "workflow.path"

// EnvDirs is the Env key of a *Dirs shared by the documents of one run over
// files that do not change meanwhile (baton check): which files of a folder
// may declare a bundle is then read once per folder, not once per document.
const EnvDirs = "workflow.dirs"

// EnvCommitted is the Env key of a Committed: which files the commit
// checked out in the document's Git repository holds, which is where
// `xmd workflow start` reads a bundle's components from. Absent, or not
// known, the bundle's files are checked in the workspace alone.
const EnvCommitted = "workflow.committed"

// Committed says which files the commit checked out (HEAD) holds.
type Committed interface {
	// Holds reports whether the commit holds a file at p, a slash path
	// relative to the root of the EnvFS file system; known is false when
	// that cannot be told (no repository, no commit, git unavailable).
	Holds(p string) (held, known bool)
}

// EnvComponentDirs is the Env key of the []string of folders, slash paths
// in the EnvFS file system, that component files are searched in; absent,
// DefaultComponentDirs.
const EnvComponentDirs = "workflow.component-dirs"

// EnvMode is the Env key of how the engine runs the document, one of
// ModeRun, ModeTest and ModeWorkflow; absent, it is told by the document:
// a test document (IsTestDocument) as `xmd test` runs it, any other as
// `xmd run` does, with the workflow host's components taken as
// registered (a document may be run either way).
const EnvMode = "workflow.mode"

// The modes the engine runs a document in (EnvMode).
const (
	ModeRun      = "run"      // xmd run DOC
	ModeTest     = "test"     // xmd test: the document's own folder searched first
	ModeWorkflow = "workflow" // xmd workflow start: the workflow host registers its components
)

// EnvRegistered is the Env key of the []string of component names (* a
// wildcard) a host registers at run time: they resolve as registered.
const EnvRegistered = "workflow.registered"
