package source

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"github.com/keyfindings/keyfindings/findings"
)

// gitHTTPServer serves a bare copy of a fixture repository with git's own
// http-backend; fault, when set, wraps the handler.
func gitHTTPServer(t *testing.T, fault func(http.Handler) http.Handler) (*httptest.Server, string) {
	t.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git is not installed: no http-backend to serve from")
	}
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	r, first, _ := fixtureRepo(t)
	// Enough incompressible bytes that a transfer can be cut in the middle.
	big := make([]byte, 3<<20)
	rand.Read(big)
	r.Write("assets/blob.bin", big)
	r.Commit("add a large blob")
	r.Tag("v0.2.0")
	root := t.TempDir()
	if _, err := git.PlainClone(filepath.Join(root, "repo.git"), true, &git.CloneOptions{URL: r.Dir, Tags: git.AllTags}); err != nil {
		t.Fatal(err)
	}
	var h http.Handler = &cgi.Handler{
		Path: backend,
		Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"},
	}
	if fault != nil {
		h = fault(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	_ = first
	return srv, srv.URL + "/repo.git"
}

// cutWriter aborts the response after limit bytes of a pack.
type cutWriter struct {
	http.ResponseWriter
	n, limit int
}

func (w *cutWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		w.ResponseWriter.Write(p[:w.limit-w.n])
		w.ResponseWriter.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
	w.n += len(p)
	return w.ResponseWriter.Write(p)
}

func (w *cutWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

func TestFetchCutMidTransfer(t *testing.T) {
	var cut atomic.Bool
	cut.Store(true)
	srv, url := gitHTTPServer(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if cut.Load() && strings.HasSuffix(r.URL.Path, "git-upload-pack") {
				h.ServeHTTP(&cutWriter{ResponseWriter: w, limit: 256 << 10}, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	_ = srv
	cache := t.TempDir()
	opts := Options{Repo: url, CacheDir: cache, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}
	_, _, err := openAt(t, opts, "v0.2.0")
	if err == nil {
		t.Fatal("a transfer cut in the middle succeeded")
	}
	t.Logf("cut: %v", err)
	if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "fetch "+url) {
		t.Errorf("error %q, want one line naming the URL", err)
	}
	// The server recovers: the same cache serves the next run.
	cut.Store(false)
	_, at, err := openAt(t, opts, "v0.2.0")
	if err != nil {
		t.Fatalf("after the cut: %v", err)
	}
	if _, err := at.Snapshot.ReadFile("assets/blob.bin"); err != nil {
		t.Errorf("the refetched blob is unreadable: %v", err)
	}
}

func TestFetchSlowServerTimeout(t *testing.T) {
	var slow atomic.Bool
	slow.Store(true)
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	_, url := gitHTTPServer(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if slow.Load() {
				select {
				case <-release:
				case <-time.After(20 * time.Second):
				case <-r.Context().Done():
				}
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	cache := t.TempDir()
	opts := Options{Repo: url, CacheDir: cache, Timeout: 300 * time.Millisecond, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}
	start := time.Now()
	_, err := Open(context.Background(), opts)
	if err == nil {
		t.Fatal("a server that does not answer did not time out")
	}
	t.Logf("slow: %v", err)
	var se *Error
	if !errors.As(err, &se) || se.Remedy != MoreTime || !strings.Contains(err.Error(), "no answer within 300ms") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q, want one line saying the time ran out, with the remedy MoreTime", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s to give up", d)
	}
	slow.Store(false)
	once.Do(func() { close(release) })
	opts.Timeout = time.Minute
	if _, _, err := openAt(t, opts, "v0.1.0"); err != nil {
		t.Fatalf("after the slow server recovered: %v", err)
	}
}

func TestConcurrentRunsShareCache(t *testing.T) {
	_, url := gitHTTPServer(t, nil)
	cache := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			o, err := Open(context.Background(), Options{Repo: url, Ref: "v0.1.0", CacheDir: cache, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}})
			if err != nil {
				errs[i] = err
				return
			}
			defer o.Close()
			at, err := o.At(context.Background(), "v0.1.0")
			if err != nil {
				errs[i] = err
				return
			}
			_, errs[i] = at.Snapshot.Walk(func(e Entry) error {
				_, err := ReadEntry(at.Snapshot, e)
				return err
			})
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
}
