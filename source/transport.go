package source

import (
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

var installTransport sync.Once

// useBoundedHTTP makes go-git's HTTP transport give up on a server that
// cannot be reached within seconds or stops answering, instead of waiting
// on the operating system's TCP timeouts. The whole fetch is bounded by the
// caller's context (--timeout).
func useBoundedHTTP() {
	installTransport.Do(func() {
		dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
		tr := &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           dialer.DialContext,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 60 * time.Second,
			IdleConnTimeout:       90 * time.Second,
		}
		c := githttp.NewClient(&http.Client{Transport: tr})
		client.InstallProtocol("http", c)
		client.InstallProtocol("https", c)
	})
}
