package workflow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/markdown"
)

var RuleHostComponent = &analysis.Rule{
	ID:       "workflow/host-component",
	Summary:  "A workflow host component (`Repository`, `Worktree`, `Dir`, `Git.*`, `PullRequest`, `IssueTracker`, `Issue`) is written in a form the host refuses.",
	Severity: analysis.Error,
	Doc: "The components `xmd workflow start` registers (packages/workflow/src/composition/components/*.ts) check how " +
		"they are written before they touch Git or an issue tracker, and refuse, when execution reaches them:\n\n" +
		"- `<Dir path=\"pkg\" />` self-closing: a working directory for no content (Dir.ts). Write `<Dir path=\"pkg\">…</Dir>`.\n" +
		"- `<Git.Add>`, `<Git.Push>`, `<Git.Switch>` with a closing tag, even an empty one: they render nothing and take no " +
		"content (the quick fix writes them self-closing when nothing is inside).\n" +
		"- `Git.Add`, `Git.Commit`, `Git.Push`, `Git.Switch`, `PullRequest` and `Worktree` with no `<Repository>` written " +
		"around them (one with content: a self-closing `<Repository … as=\"r\" />` installs none): `… is not authorized against " +
		"this run's retained state: it is written outside a lexical <Repository>`. Checked in the document a run starts from " +
		"(a workflow root, or a document no bundle lists), where nothing but the document can put one around them, and only " +
		"where every element around the tag is structural or registered: a component's content is rendered where that " +
		"component decides.\n" +
		"- `<Git.Commit>` with no `message` and no content, or content that is only white space (`needs a message`), or a " +
		"`message` of white space alone and no content (GitCommit.ts, composeCommitMessage, admitCommitMessage).\n" +
		"- a `<Git.Add paths>` or `<Git.Commit message>` literal holding an unpaired surrogate (`{\"\\uD800\"}`): it cannot be " +
		"handed to Git as written (admitPathspecs, admitCommitMessage).\n" +
		"- a `<Repository url>` literal that is no Git locator the host uses (packages/workflow/src/deno/composition/locator.ts, " +
		"admitLocator): a relative path or `github.com/o/app`, white space, a leading `-`, a scheme other than https, http, ssh, " +
		"git and file, user info (`https://token@…`, `ssh://git@…`; Git's `git@host:path` is taken), a query or a fragment.\n" +
		"- a second `<Repository name>` with another literal `url` or `base` than an earlier one of the same name that always " +
		"runs before it, and a second `<Worktree name>` of one repository with another `branch` or `base` " +
		"(deno/composition/repository.ts, worktree.ts: `incompatible-reuse`). A name is the run's identity for one place.\n" +
		"- `<PullRequest>` in a run none of whose documents (the root and its bundle) writes a `<Git.Push />`: a pull request " +
		"needs this run's own successful push of its branch (composition/push-evidence.ts: `this run holds no successful " +
		"<Git.Push> result`); and one written after a `<Git.Commit>` in the same element with nothing between them but " +
		"`<Git.Add>`s, more commits, text and code that is not run: the commit is one no push can have published yet, so the " +
		"run's push of the branch names another commit (`this run published that branch at a different commit`) or there is " +
		"none. Write `<Git.Push />` after the commit. Which branch and commit a push published otherwise depends on the " +
		"checkout when the run reaches it (a `<Git.Switch>`, a component, an executed block, a branch not taken), and is not judged.\n" +
		"- `<Issue>`'s form (Issue.ts, mode): `url` and `title` at once; a `url` with content, `tags` or `assignee`; a `title` " +
		"with `provider` or without content; neither.\n" +
		"- an `<Issue title>` upsert with no `<IssueTracker>` written around it (checked as a Git component's `<Repository>` is), " +
		"or under one whose literal `url` is not an http or https URL free of user info, query and fragment, or whose `provider` " +
		"is not a lower-case name (`^[a-z][a-z0-9-]*$`); an `<Issue url>` read whose literal `url` or `provider` is refused the " +
		"same way (packages/workflow/src/issue/tracker.ts).\n" +
		"- `<Git.Switch branch>` starting with `-` (deno/composition/switch.ts, performSwitch).\n\n" +
		"A value baton does not know before the run (an expression) is not checked, and a tag inside the testing package's " +
		"`<AssertThrows>`, where the failure is what a test asserts, is not reported. A URL is refused only for what refuses it " +
		"whatever the URL parser makes of the rest; analysis/workflow/testdata/locators.json holds the engine's verdicts.",
	Follows: []string{
		"executable.md packages/workflow/src/composition/components/Dir.ts Dir (self-closing)",
		"executable.md packages/workflow/src/composition/components/GitAdd.ts GitAdd (content; a lexical <Repository>)",
		"executable.md packages/workflow/src/composition/components/GitPush.ts GitPush (content; a lexical <Repository>)",
		"executable.md packages/workflow/src/composition/components/GitSwitch.ts GitSwitch (content; a lexical <Repository>)",
		"executable.md packages/workflow/src/composition/components/GitCommit.ts composeCommitMessage (a message; a lexical <Repository>)",
		"executable.md packages/workflow/src/composition/components/GitCommit.ts admitCommitMessage (well-formed text)",
		"executable.md packages/workflow/src/composition/components/GitAdd.ts admitPathspecs (well-formed text)",
		"executable.md packages/workflow/src/composition/components/PullRequest.ts PullRequest (a lexical <Repository>)",
		"executable.md packages/workflow/src/composition/components/Worktree.ts Worktree (a lexical <Repository>)",
		"executable.md packages/workflow/src/composition/push-evidence.ts admitPushEvidence (missing)",
		"executable.md packages/workflow/src/composition/push-evidence.ts admitPushEvidence (conflicting: a commit after the push)",
		"executable.md packages/workflow/src/deno/composition/locator.ts admitLocator",
		"executable.md packages/workflow/src/deno/composition/repository.ts performRepository (incompatible-reuse)",
		"executable.md packages/workflow/src/deno/composition/worktree.ts performWorktree (incompatible-reuse)",
		"executable.md packages/workflow/src/deno/composition/switch.ts performSwitch (invalid-branch)",
		"executable.md packages/workflow/src/composition/components/Issue.ts mode (the form)",
		"executable.md packages/workflow/src/issue/tracker.ts resolveIssueDestination (canonicalIssueTarget, issueProviderName)",
	},
}

// litKind is what baton knows of a prop's value before the run.
type litKind int

const (
	litAbsent  litKind = iota
	litString          // a string (the text in s)
	litOther           // a literal that is not a string
	litUnknown         // an expression, known when it runs
)

// literalProp reads the prop name of t as the scanner resolves it.
func literalProp(t *Tag, name string) (string, litKind, *Attr) {
	a := t.Attr(name)
	if a == nil {
		return "", litAbsent, nil
	}
	v, ok := literalValue(t, a)
	if !ok {
		return "", litUnknown, a
	}
	if s, ok := v.(string); ok {
		return s, litString, a
	}
	return "", litOther, a
}

// hostTag reports a tag the workflow host's registration answers, closed,
// and not where a failure is what a test asserts.
func (k *checker) hostTag(t *Tag) bool {
	res := k.resOf(t)
	return t.Closed && res.Kind == ResolveRegistered && res.Host && !k.failureExpected(t)
}

// scopeOf is the nearest element named name (Repository, IssueTracker) of
// the workflow host, written with content around t: what installs the
// context t reads. known is false where an element around t could install
// one baton cannot see: a component file or bundle entry (content passed to
// it is rendered where it decides), an unresolved or configured name, or,
// at the top, a document some caller may invoke.
func (k *checker) scopeOf(t *Tag, name string) (scope *Tag, known bool) {
	for p := t.Parent; p != nil; p = p.Parent {
		res := k.resOf(p)
		switch {
		case res.Kind == ResolveStructural:
		case res.Kind == ResolveRegistered && res.Host:
			if p.Name == name && !p.SelfClosing {
				return p, true
			}
		case res.Kind == ResolveRegistered && !res.Configured:
			// The engine's own components render what they are given in
			// the scope they run in.
		default:
			return nil, false
		}
	}
	if !k.r.isRunRoot() || IsTestDocument(k.r.docPath) {
		return nil, false
	}
	return nil, true
}

// checkHostComponents checks the workflow host's components as written.
func (k *checker) checkHostComponents() {
	var repos, trees []*Tag
	var prs []*Tag
	for _, t := range k.c.Tags {
		if !k.hostTag(t) {
			continue
		}
		switch t.Name {
		case "Dir":
			if t.SelfClosing {
				k.report(RuleHostComponent, t.NameSpan, "<Dir> is self-closing: it installs a working directory for its content and has none; "+
					"write the elements that run there inside it, <Dir path=…>…</Dir> (the host refuses \"<Dir path=… /> is invalid\")")
			}
		case "Git.Add", "Git.Push", "Git.Switch":
			k.checkRendersNothing(t)
			k.checkInRepository(t)
			if t.Name == "Git.Add" {
				k.checkWellFormed(t, "paths", "needs every pathspec to be well-formed text")
			}
			if b, kind, a := literalProp(t, "branch"); t.Name == "Git.Switch" && kind == litString && strings.HasPrefix(b, "-") {
				k.report(RuleHostComponent, a.ValueSpan, fmt.Sprintf("branch %q starts with -, which Git would read as an option: name the branch without it "+
					"(the host refuses \"<Git.Switch> could not run: the branch it names cannot be used as one.\")", b))
			}
		case "Git.Commit":
			k.checkCommitMessage(t)
			k.checkWellFormed(t, "message", "needs a message that is well-formed text")
			k.checkInRepository(t)
		case "PullRequest":
			if k.checkInRepository(t) {
				prs = append(prs, t)
			}
		case "Worktree":
			if k.checkInRepository(t) {
				trees = append(trees, t)
			}
		case "Repository":
			if u, kind, a := literalProp(t, "url"); kind == litString && u != "" && locatorRefused(u) {
				k.report(RuleHostComponent, a.ValueSpan, fmt.Sprintf("%q is not a Git locator the workflow host uses: write an https, http, ssh, git or file URL "+
					"with no user info, query or fragment, Git's user@host:path, or an absolute path (the host refuses \"<Repository name=…> could not be "+
					"prepared: its url could not be used as a Git locator\")", u))
			} else {
				repos = append(repos, t)
			}
		case "Issue":
			k.checkIssue(t)
		}
	}
	k.checkReuse(repos, "Repository", func(t *Tag) (string, bool) { return "", true }, "url", "base")
	k.checkReuse(trees, "Worktree", func(t *Tag) (string, bool) {
		if r, _ := k.scopeOf(t, "Repository"); r != nil {
			if n, kind, _ := literalProp(r, "name"); kind == litString && n != "" {
				return n, true
			}
		}
		return "", false // no repository baton can name
	}, "branch", "base")
	k.checkPushEvidence(prs)
}

// checkRendersNothing: Git.Add, Git.Push and Git.Switch take no content;
// any closing tag is content (hasContent is the tag's shape).
func (k *checker) checkRendersNothing(t *Tag) {
	if t.SelfClosing {
		return
	}
	var opts []func(*analysis.Finding)
	if len(t.Children) == 0 && blank(k.c.Text[t.Inner.Start:t.Inner.End]) && t.Open.End > t.Open.Start+1 {
		open := k.c.Text[t.Open.Start : t.Open.End-1]
		opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Write <" + t.Name + " /> self-closing", Safe: true,
			Edits: []analysis.Edit{{Span: markdown.Span{Start: t.Open.Start, End: t.Span.End}, NewText: strings.TrimRight(open, " \t\r\n") + " />"}}}))
	}
	k.report(RuleHostComponent, t.NameSpan, fmt.Sprintf("<%s> renders nothing and takes no content, and a closing tag is content even with nothing inside: "+
		"write it self-closing, <%s … /> (the host refuses \"<%s> renders nothing, so it takes no content\")", t.Name, t.Name, t.Name), opts...)
}

// checkInRepository reports a Git operation, pull request or worktree no
// lexical <Repository> is around; true when one is (or may be).
func (k *checker) checkInRepository(t *Tag) bool {
	repo, known := k.scopeOf(t, "Repository")
	if repo != nil || !known {
		return true
	}
	fatal := ""
	if t.Name != "Worktree" {
		// A GitOperationAuthorityError or PullRequestAuthorityError is a
		// StaleInputError: fatal, never printed
		// (packages/workflow/src/composition/errors.ts).
		fatal = ", and no <PrintErrors> catches that"
	}
	k.report(RuleHostComponent, t.NameSpan, fmt.Sprintf("<%s> is outside any <Repository>: write it inside a <Repository name=… url=…>…</Repository> with content "+
		"(a self-closing one installs no repository); the host refuses it (\"… outside a lexical <Repository>\")%s", t.Name, fatal))
	return false
}

// checkCommitMessage: a commit needs a message, from the prop, the content
// or both (GitCommit.ts, composeCommitMessage and admitCommitMessage).
func (k *checker) checkCommitMessage(t *Tag) {
	m, kind, a := literalProp(t, "message")
	if kind == litUnknown || kind == litOther || (kind == litString && m == "") {
		return // run time, or the props schema's refusal (workflow/prop-value)
	}
	if !t.SelfClosing && (len(t.Children) > 0 || !blank(k.c.Text[t.Inner.Start:t.Inner.End])) {
		return // content that renders text, as far as baton can tell
	}
	switch {
	case kind == litAbsent:
		k.report(RuleHostComponent, t.NameSpan, "<Git.Commit> has no message: write message=\"…\", or the message as its content, <Git.Commit as=…>…</Git.Commit> "+
			"(the host refuses \"<Git.Commit> needs a message\")")
	case strings.Trim(m, " \t\n\r\f\v") == "":
		k.report(RuleHostComponent, a.ValueSpan, "the message is white space alone, and nothing else gives <Git.Commit> one: write the message "+
			"(the host refuses \"<Git.Commit> needs a message with text in it\")")
	}
}

// checkWellFormed reports a literal prop holding an unpaired surrogate,
// which only a JSON escape can write.
func (k *checker) checkWellFormed(t *Tag, prop, sentence string) {
	a := t.Attr(prop)
	if a == nil || a.Kind != AttrExpr {
		return
	}
	if _, ok := literalValue(t, a); !ok || !loneSurrogate(a.Value) {
		return
	}
	k.report(RuleHostComponent, a.ValueSpan, fmt.Sprintf("%s holds an unpaired surrogate (a \\uD800–\\uDFFF escape not in a pair), which cannot be handed to Git as written: "+
		"write the character itself, or a whole pair (the host refuses \"<%s> %s\")", prop, t.Name, sentence))
}

// loneSurrogate reports a \uXXXX escape of a surrogate that is not one
// half of a high-low pair, in JSON text.
func loneSurrogate(s string) bool {
	unit := func(i int) (rune, bool) {
		if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
		return rune(n), err == nil
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		u, ok := unit(i)
		if !ok {
			i++ // an escaped character: \\ or \"
			continue
		}
		switch {
		case u >= 0xd800 && u <= 0xdbff:
			if low, ok := unit(i + 6); ok && low >= 0xdc00 && low <= 0xdfff {
				i += 11
				continue
			}
			return true
		case u >= 0xdc00 && u <= 0xdfff:
			return true
		}
		i += 5
	}
	return false
}

// checkIssue checks <Issue>'s form and destination (Issue.ts, mode;
// issue/tracker.ts).
func (k *checker) checkIssue(t *Tag) {
	url, uk, ua := literalProp(t, "url")
	title, tk, _ := literalProp(t, "title")
	known := func(kind litKind, s string) bool { return kind == litAbsent || kind == litString && s != "" }
	if !known(uk, url) || !known(tk, title) {
		return // run time, or the props schema's refusal
	}
	hasURL, hasTitle := uk == litString, tk == litString
	present := func(prop string) *Attr {
		if _, kind, a := literalProp(t, prop); kind == litString || kind == litOther {
			return a
		}
		return nil
	}
	refuse := func(span markdown.Span, msg string) { k.report(RuleHostComponent, span, msg) }
	switch {
	case hasURL && hasTitle:
		refuse(t.NameSpan, "<Issue> has both url and title: it reads an issue (url) or files one (title), not both; write two elements "+
			"(the host refuses \"<Issue> reads an issue with url, or files one with title, and cannot do both at once.\")")
	case hasURL:
		if !t.SelfClosing {
			refuse(t.NameSpan, "<Issue url> reads an issue and renders nothing, so it takes no content: write it <Issue url=… as=… /> "+
				"(the host refuses \"<Issue> with a url reads an existing issue and renders nothing, so it takes no content.\")")
		}
		for _, p := range []string{"tags", "assignee"} {
			if a := present(p); a != nil {
				refuse(a.NameSpan, fmt.Sprintf("<Issue url> reads an issue and changes nothing about it, so %s does not apply: remove it, or file the issue with "+
					"<Issue title=…> (the host refuses \"… so %s does not apply\")", p, p))
			}
		}
		if issueURLRefused(url) {
			refuse(ua.ValueSpan, fmt.Sprintf("%q is not an http or https URL naming one issue, free of user info, query and fragment: the host refuses it "+
				"(\"<Issue> has no destination it can use: the url it was given is not …\")", url))
		}
		if p, kind, a := literalProp(t, "provider"); kind == litString && !providerName(p) {
			refuse(a.ValueSpan, fmt.Sprintf("provider %q is not a provider's name, lower case: [a-z][a-z0-9-]* (the host refuses \"a provider discriminator "+
				"is a stable lower-case name, and that is not one\")", p))
		}
	case hasTitle:
		if a := present("provider"); a != nil {
			refuse(a.NameSpan, "<Issue title> files an issue with the enclosing <IssueTracker>'s provider, so provider does not apply here: "+
				"write it on the <IssueTracker> (the host refuses \"<Issue> takes its provider from the enclosing <IssueTracker> …\")")
		}
		if t.SelfClosing {
			refuse(t.NameSpan, "<Issue title> files the issue its content describes and has none: write the description inside it, "+
				"<Issue title=…>…</Issue> (the host refuses \"<Issue> files the issue its content describes, so it needs content.\")")
			return
		}
		k.checkTracker(t)
	default:
		refuse(t.NameSpan, "<Issue> has neither url nor title: read an issue with <Issue url=… as=… />, or file one with <Issue title=…>…</Issue> "+
			"(the host refuses \"… This is neither.\")")
	}
}

// checkTracker checks the destination an <Issue title> upsert files in:
// the nearest <IssueTracker> with content around it
// (tracker.ts, resolveIssueDestination).
func (k *checker) checkTracker(t *Tag) {
	tr, known := k.scopeOf(t, "IssueTracker")
	if !known {
		return
	}
	if tr == nil {
		k.report(RuleHostComponent, t.NameSpan, "<Issue title> files an issue, and no <IssueTracker> around it says where: write it inside "+
			"<IssueTracker url=\"…\">…</IssueTracker> (the host refuses \"<Issue> has no destination it can use: it is written outside any lexical Issue context\")")
		return
	}
	if u, kind, a := literalProp(tr, "url"); kind == litString && issueURLRefused(u) {
		k.report(RuleHostComponent, t.NameSpan, fmt.Sprintf("<Issue title> files in the <IssueTracker> around it, whose url %q is not an http or https URL "+
			"free of user info, query and fragment: write the tracker's url as one (the host refuses \"<Issue> has no destination it can use: the Issue "+
			"context does not carry an http or https URL …\")", u), analysis.WithRelated(a.ValueSpan, "the tracker's url"))
		return
	}
	if p, kind, a := literalProp(tr, "provider"); kind == litString && p != "" && !providerName(p) {
		k.report(RuleHostComponent, t.NameSpan, fmt.Sprintf("<Issue title> files with the provider of the <IssueTracker> around it, %q, which is not a "+
			"provider's name, lower case: [a-z][a-z0-9-]* (the host refuses \"a provider discriminator is a stable lower-case name\")", p),
			analysis.WithRelated(a.ValueSpan, "the tracker's provider"))
	}
}

// checkReuse reports a second element of one name (in the scope key
// gives) with other literal props than an earlier one that always runs
// before it: a name is the run's identity for one place
// (deno/composition/repository.ts, worktree.ts: incompatible-reuse).
func (k *checker) checkReuse(tags []*Tag, what string, key func(*Tag) (string, bool), props ...string) {
	type seen struct {
		t      *Tag
		values []string
	}
	byName := map[string][]seen{}
	for _, t := range tags {
		name, kind, _ := literalProp(t, "name")
		if kind != litString || name == "" {
			continue
		}
		values := make([]string, len(props))
		ok := true
		for i, p := range props {
			v, kind, _ := literalProp(t, p)
			switch {
			case kind == litAbsent:
				values[i] = "\x00absent"
			case kind == litString && v != "":
				values[i] = v
			default:
				ok = false
			}
		}
		if !ok {
			continue
		}
		scope, ok := key(t)
		if !ok {
			continue
		}
		id := scope + "\x00" + name
		for _, s := range byName[id] {
			if slicesEqual(s.values, values) || !alwaysBefore(s.t, t) {
				continue
			}
			var diff []string
			for i, p := range props {
				if s.values[i] != values[i] {
					diff = append(diff, p)
				}
			}
			k.report(RuleHostComponent, t.NameSpan, fmt.Sprintf("<%s name=%q> was created earlier in this run (line %d) with another %s: a name is the run's identity "+
				"for one place, so give this one another name (the host refuses \"that name is already this run's\" for it)", what, name, k.line(s.t.Span.Start), strings.Join(diff, " and ")),
				analysis.WithRelated(s.t.NameSpan, "the first "+what+" of that name"))
			break
		}
		byName[id] = append(byName[id], seen{t, values})
	}
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// alwaysBefore reports that a, written before b, runs whenever b does:
// every element between a and the nearest element around both runs its
// content unconditionally, and b is not in an <Else> of that element when
// a is in its then-branch.
func alwaysBefore(a, b *Tag) bool {
	around := map[*Tag]bool{}
	for p := b.Parent; p != nil; p = p.Parent {
		around[p] = true
	}
	p := a.Parent
	for ; p != nil && !around[p]; p = p.Parent {
		switch p.Name {
		case "Repository", "Worktree", "Dir", "IssueTracker", "Output", "Let":
		default:
			return false
		}
	}
	if p != nil && p.Name == "If" {
		// a is in the then-branch (not in an <Else>: that is no element
		// around b, or it would be p); b must be too.
		for q := b.Parent; q != p; q = q.Parent {
			if q.Name == "Else" && q.Parent == p {
				return false
			}
		}
	}
	return true
}

// checkPushEvidence reports a <PullRequest> in a run none of whose
// documents writes a <Git.Push>: nothing in the run can publish the branch
// it would open the pull request from (push-evidence.ts, missing).
func (k *checker) checkPushEvidence(prs []*Tag) {
	if len(prs) == 0 {
		return
	}
	docs := []*Component{k.c}
	if b := k.r.bundle; b != nil {
		if len(k.r.self.Bundle) == 0 {
			docs = append(docs, k.r.read(b.RootPath))
		}
		for _, p := range b.Entries {
			if p != k.r.docPath {
				docs = append(docs, k.r.read(p))
			}
		}
	} else if !k.r.isRunRoot() {
		return
	}
	for _, c := range docs {
		if c == nil {
			return // a document of the run baton cannot read
		}
		for _, t := range c.Tags {
			if t.Name == "Git.Push" {
				k.checkCommitBeforePR(prs)
				return
			}
		}
	}
	for _, t := range prs {
		k.report(RuleHostComponent, t.NameSpan, "<PullRequest> needs this run's own push of its branch, and no document of the run writes <Git.Push />: "+
			"write <Git.Push /> before it, in the same <Repository> (the host refuses \"this run holds no successful <Git.Push> result for the branch and commit\")")
	}
}

// checkCommitBeforePR reports a <PullRequest> written after a <Git.Commit>
// in the same element, with nothing between them but more <Git.Add>s and
// <Git.Commit>s, text and plain code: the commit moves the checkout to a
// commit no push of the run can have published yet, so whichever push came
// before, the pull request's head is not one (push-evidence.ts: conflicting
// when the run pushed that branch, missing when it did not). A commit that
// fails stops the run before the pull request either way. Anything else
// between them (a <Git.Push>, a <Git.Switch> back to a pushed branch, a
// component, an executed block that could move the checkout) leaves it.
func (k *checker) checkCommitBeforePR(prs []*Tag) {
	for _, pr := range prs {
		siblings := k.c.Body
		if pr.Parent != nil {
			siblings = pr.Parent.Children
		}
		i := slices.IndexFunc(siblings, func(n Node) bool { return n == Node(pr) })
	scan:
		for j := i - 1; j >= 0; j-- {
			switch n := siblings[j].(type) {
			case *Placeholder:
				continue
			case *CodeBlock:
				if n.Exec || n.Eval {
					break scan
				}
			case *Tag:
				if !k.hostTag(n) {
					break scan
				}
				switch n.Name {
				case "Git.Add":
					continue
				case "Git.Commit":
					k.report(RuleHostComponent, pr.NameSpan, fmt.Sprintf("<PullRequest> follows the <Git.Commit> on line %d with no <Git.Push /> after it: the commit is one no push of the run has "+
						"published, so the host refuses the pull request (\"this run holds no successful <Git.Push> result for the branch and commit it would open a pull request from\", "+
						"or \"this run published that branch at a different commit than the one the checkout is on now\"): write <Git.Push /> after the commit, before <PullRequest>", k.line(n.Span.Start)))
					break scan
				default:
					break scan
				}
			default:
				break scan
			}
		}
	}
}
