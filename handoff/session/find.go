package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotFound is wrapped by the error [Find] returns when no state folder
// holds the session.
var ErrNotFound = errors.New("session not found")

// ErrInvalidID is wrapped by the error [Find] returns for an id that
// [ValidID] refuses.
var ErrInvalidID = errors.New("invalid session id")

// ErrAmbiguous is wrapped by the error [Find] returns when two project
// folders of one state folder hold a session of the id: clio mints ids at
// random, so one of them was copied or moved there, and which one a
// document came from cannot be told.
var ErrAmbiguous = errors.New("session id in more than one project folder")

// MaxIDLen is the longest session id [ValidID] accepts, in bytes.
const MaxIDLen = 128

// ValidID reports whether id may name a session folder: one non-empty path
// component of at most [MaxIDLen] bytes made of ASCII letters, digits, '.',
// '_' and '-', and not "." or "..". clio mints 12-character base36 ids, but
// its own tests use ids such as "session-a"; anything else is refused before
// a path is built from it.
func ValidID(id string) bool {
	if id == "" || len(id) > MaxIDLen || id == "." || id == ".." {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// DefaultStateDirs lists the folders clio-coder may keep its state in, in
// clio's order of precedence:
//
//  1. $CLIO_CODER_STATE_DIR;
//  2. $CLIO_CODER_HOME/state;
//  3. the platform default: on darwin ~/Library/Application Support/clio-coder/state;
//     on windows %LOCALAPPDATA%\clio-coder\state (clio falls back to
//     <home>\AppData\Local when LOCALAPPDATA is unset); on linux and every
//     other system $XDG_STATE_HOME/clio-coder, else ~/.local/state/clio-coder.
//
// Environment values are trimmed (as clio does); empty values and an empty
// home are skipped, and a folder is listed once. Parts are joined with the
// separator of goos ('\' on windows, '/' elsewhere) so the result does not
// depend on the system the caller runs on. All candidates are returned, not
// only the first, so that [Find] can look in each.
func DefaultStateDirs(getenv func(string) string, goos, home string) []string {
	sep := "/"
	if goos == "windows" {
		sep = `\`
	}
	join := func(base string, parts ...string) string {
		if base == "" {
			return ""
		}
		out := strings.TrimRight(base, `/\`) // "/" joins as "/state"
		for _, p := range parts {
			out += sep + p
		}
		return out
	}
	env := func(k string) string {
		if getenv == nil {
			return ""
		}
		return strings.TrimSpace(getenv(k))
	}
	home = strings.TrimSpace(home)

	var dirs []string
	add := func(d string) {
		if d == "" {
			return
		}
		for _, have := range dirs {
			if have == d {
				return
			}
		}
		dirs = append(dirs, d)
	}
	add(env("CLIO_CODER_STATE_DIR"))
	add(join(env("CLIO_CODER_HOME"), "state"))
	switch goos {
	case "darwin":
		add(join(home, "Library", "Application Support", "clio-coder", "state"))
	case "windows":
		if local := env("LOCALAPPDATA"); local != "" {
			add(join(local, "clio-coder", "state"))
		} else {
			add(join(home, "AppData", "Local", "clio-coder", "state"))
		}
	default:
		if xdg := env("XDG_STATE_HOME"); xdg != "" {
			add(join(xdg, "clio-coder"))
		} else {
			add(join(home, ".local", "state", "clio-coder"))
		}
	}
	return dirs
}

// CwdHash is the name of the folder clio keeps a working directory's
// sessions in: the first 16 hex digits of the SHA-256 of the absolute cwd.
// An absolute cwd is hashed exactly as given (clio hashes its process cwd,
// which is already clean); a relative one is first made absolute against
// the current directory.
func CwdHash(cwd string) string {
	if !filepath.IsAbs(cwd) {
		if abs, err := filepath.Abs(cwd); err == nil {
			cwd = abs
		}
	}
	sum := sha256.Sum256([]byte(cwd))
	return hex.EncodeToString(sum[:])[:16]
}

// Find looks for session id in each state folder, in order, as
// <stateDir>/sessions/*/<id>/ holding a current.jsonl, and returns the one
// of the first state folder that holds it. Two of one state folder are an
// error wrapping [ErrAmbiguous] that names both: a ledger that may be the
// wrong session's is not one any path may be called invented against.
// looked lists the pattern tried in each state folder, for a "where
// it looked" message. The id is validated first: an invalid id returns an
// error wrapping [ErrInvalidID], with no path built and looked empty. When no
// folder holds the session the error wraps [ErrNotFound] (and any error other
// than "does not exist" met while looking).
func Find(stateDirs []string, id string) (dir string, looked []string, err error) {
	if !ValidID(id) {
		return "", nil, fmt.Errorf("find session %q: %w", id, ErrInvalidID)
	}
	var problems []error
	seen := make(map[string]bool)
	for _, sd := range stateDirs {
		if strings.TrimSpace(sd) == "" {
			continue
		}
		sessions := filepath.Join(sd, "sessions")
		if seen[sessions] {
			continue
		}
		seen[sessions] = true
		looked = append(looked, filepath.Join(sessions, "*", id))
		buckets, rerr := os.ReadDir(sessions)
		if rerr != nil {
			if !errors.Is(rerr, fs.ErrNotExist) {
				problems = append(problems, rerr)
			}
			continue
		}
		var found []string
		for _, b := range buckets {
			bucket := filepath.Join(sessions, b.Name())
			if !b.IsDir() {
				// A symlinked bucket counts when it leads to a folder.
				if fi, serr := os.Stat(bucket); b.Type()&fs.ModeSymlink == 0 || serr != nil || !fi.IsDir() {
					continue
				}
			}
			cand := filepath.Join(bucket, id)
			fi, serr := os.Stat(filepath.Join(cand, "current.jsonl"))
			if serr == nil && !fi.IsDir() {
				found = append(found, cand)
			}
			if serr != nil && !errors.Is(serr, fs.ErrNotExist) {
				problems = append(problems, serr)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], looked, nil
		case len(found) > 1:
			return "", looked, fmt.Errorf("find session %s: %w: %s; remove or rename all but the one the document came from", id, ErrAmbiguous, strings.Join(found, " and "))
		}
	}
	nf := fmt.Errorf("find session %s: %w (looked in %s)", id, ErrNotFound, lookedText(looked))
	if len(problems) > 0 {
		return "", looked, errors.Join(append([]error{nf}, problems...)...)
	}
	return "", looked, nf
}

func lookedText(looked []string) string {
	if len(looked) == 0 {
		return "no state folder"
	}
	return strings.Join(looked, ", ")
}
