package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// profileOptions are check's flags for measuring the whole process: where
// its time and memory go (docs/performance.md reads them with go tool
// pprof and go tool trace).
type profileOptions struct {
	cpu, mem, trace string
}

func (o *profileOptions) register(fl *flag.FlagSet) {
	fl.StringVar(&o.cpu, "cpuprofile", "", "write a CPU profile of the run to `file`")
	fl.StringVar(&o.mem, "memprofile", "", "write a heap profile at the end of the run to `file`")
	fl.StringVar(&o.trace, "trace", "", "write a runtime execution trace of the run to `file`")
}

// defaultMemProfileRate is the runtime's own sampling rate, which main
// turns off: a heap profile asked for samples from the flag's parse on.
const defaultMemProfileRate = 512 * 1024

// start begins the profiles asked for and returns what ends them.
func (o *profileOptions) start() (stop func() error, err error) {
	var stops []func() error
	stop = func() error {
		var first error
		for i := len(stops) - 1; i >= 0; i-- {
			if err := stops[i](); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	if o.cpu != "" {
		f, err := os.Create(o.cpu)
		if err != nil {
			return stop, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return stop, err
		}
		stops = append(stops, func() error { pprof.StopCPUProfile(); return f.Close() })
	}
	if o.trace != "" {
		f, err := os.Create(o.trace)
		if err != nil {
			return stop, err
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return stop, err
		}
		stops = append(stops, func() error { trace.Stop(); return f.Close() })
	}
	if o.mem != "" {
		runtime.MemProfileRate = defaultMemProfileRate
		stops = append(stops, func() error {
			f, err := os.Create(o.mem)
			if err != nil {
				return err
			}
			runtime.GC()
			if err := pprof.WriteHeapProfile(f); err != nil {
				f.Close()
				return fmt.Errorf("heap profile: %w", err)
			}
			return f.Close()
		})
	}
	return stop, nil
}
