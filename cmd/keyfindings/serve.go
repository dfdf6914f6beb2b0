package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"time"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	out := fs.String("out", defaultOut, "the built site to serve (./"+fallbackOut+" when the default ./"+defaultOut+" is a Go package)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (serve takes flags only)", rest[0])
	}
	dir := outDir(fs, *out, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return serve(ctx, dir, *addr, func(url string) {
		fmt.Fprintf(stderr, "keyfindings: serving %s at %s (Ctrl-C stops)\n", dir, url)
	})
}

// serve serves the built site in dir on addr until ctx is done; ready is
// called with the site's URL once the listener is up.
func serve(ctx context.Context, dir, addr string, ready func(url string)) error {
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s has no index.html; build the site first (keyfindings build --out %s)", dir, dir)
		}
		return fmt.Errorf("serve %s: %w", dir, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (choose another --addr)", addr, err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	ready("http://" + ln.Addr().String() + "/")
	select {
	case err := <-errc:
		return fmt.Errorf("serve %s: %w", dir, err)
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	}
}
