package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// cacheVersion changes whenever the cached form or the rule semantics do.
const cacheVersion = 1

// fileStamp identifies one version of a rules file.
type fileStamp struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime_ns"`
	Ino   uint64 `json:"ino"`
	Dev   uint64 `json:"dev"`
}

type cachedSet struct {
	Version int                 `json:"version"`
	Files   []fileStamp         `json:"files"`
	Rules   []*Rule             `json:"rules"`
	Hosts   map[string][]string `json:"hosts"`
}

func stamp(path string) (fileStamp, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{Path: path, Size: fi.Size(), MTime: fi.ModTime().UnixNano(), Ino: uint64(st.Ino), Dev: uint64(st.Dev)}, true
}

// LoadCached loads files like [Load], but reuses the compiled rules kept
// in cacheFile when every file is unchanged (same list, size, modification
// time and inode), which spares Starlark and the example checks on every
// start. Only files that loaded without error are ever cached, and the
// cache lives in the user's private runtime directory.
func LoadCached(files []string, cacheFile string) (*Set, error) {
	stamps := make([]fileStamp, 0, len(files))
	for _, f := range files {
		s, ok := stamp(f)
		if !ok {
			return Load(files)
		}
		stamps = append(stamps, s)
	}
	if b, err := os.ReadFile(cacheFile); err == nil {
		var c cachedSet
		if json.Unmarshal(b, &c) == nil && c.Version == cacheVersion && slices.Equal(c.Files, stamps) {
			if c.Hosts == nil {
				c.Hosts = map[string][]string{}
			}
			return &Set{Rules: c.Rules, Hosts: c.Hosts, Files: files}, nil
		}
	}
	set, err := Load(files)
	if err != nil {
		return nil, err
	}
	// A file changed while it was read: do not cache what may be stale.
	for i, f := range files {
		if s, ok := stamp(f); !ok || s != stamps[i] {
			return set, nil
		}
	}
	b, err := json.Marshal(cachedSet{Version: cacheVersion, Files: stamps, Rules: set.Rules, Hosts: set.Hosts})
	if err != nil {
		return set, nil
	}
	if err := os.MkdirAll(filepath.Dir(cacheFile), 0o700); err != nil {
		return set, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(cacheFile), ".rules-cache-*")
	if err != nil {
		return set, nil
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), cacheFile) != nil {
		os.Remove(tmp.Name())
	}
	return set, nil
}
