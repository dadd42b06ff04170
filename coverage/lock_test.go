package coverage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLockWaitsAndTimesOut(t *testing.T) {
	common := t.TempDir()
	unlock, err := lockBaseline(common, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, err = lockBaseline(common, 50*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "another sentinel holds") || !strings.Contains(err.Error(), "rm ") {
		t.Fatalf("second lock: %v", err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(30 * time.Millisecond)
		unlock()
		close(released)
	}()
	unlock2, err := lockBaseline(common, 5*time.Second)
	if err != nil {
		t.Fatalf("the lock was not handed over: %v", err)
	}
	<-released
	unlock2()
}

// TestConcurrentWrites runs writers at once: the baseline ends whole and
// readable, as one of them wrote it, and the lock is gone.
func TestConcurrentWrites(t *testing.T) {
	dir := newRepo(t)
	common := filepath.Join(dir, ".git")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			b := &Baseline{Version: 1, Peaks: map[string]Peak{"go": {Tests: i, Assertions: i}}}
			errs <- WriteBaseline(context.Background(), dir, common, b, true)
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, BaselinePath))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseBaseline("b", data); err != nil {
		t.Fatalf("the baseline was corrupted: %v\n%s", err, data)
	}
	if _, err := os.Stat(filepath.Join(common, "sentinel", "baseline.lock")); err == nil {
		t.Error("the lock was left behind")
	}
}
