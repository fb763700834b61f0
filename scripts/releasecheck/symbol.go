package main

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// linkedString reads the value -X linked into a string variable (such as
// main.version) of a Go binary for any platform, from its symbol table:
// the variable is a string header (pointer, length) whose bytes lie in
// another section. The go command does not record -ldflags in the build
// information of a -trimpath build, so this is how a binary for another
// platform tells its version. The release keeps the symbol table (no -s)
// for it. Only 64-bit little-endian binaries are read (amd64, arm64).
func linkedString(data []byte, name string) (string, error) {
	r := bytes.NewReader(data)
	var (
		addr uint64
		read func(addr, n uint64) ([]byte, error)
		err  error
	)
	switch {
	case bytes.HasPrefix(data, []byte("\x7fELF")):
		addr, read, err = elfSymbol(r, name)
	case bytes.HasPrefix(data, []byte("MZ")):
		addr, read, err = peSymbol(r, name)
	default:
		addr, read, err = machoSymbol(r, name)
	}
	if err != nil {
		return "", err
	}
	header, err := read(addr, 16)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	ptr, n := binary.LittleEndian.Uint64(header[:8]), binary.LittleEndian.Uint64(header[8:])
	if n == 0 {
		return "", nil
	}
	if n > 1<<16 {
		return "", fmt.Errorf("%s: a string of %d bytes", name, n)
	}
	s, err := read(ptr, n)
	if err != nil {
		return "", fmt.Errorf("%s's bytes: %w", name, err)
	}
	return string(s), nil
}

var errNoSymbol = errors.New("no such symbol (a binary built with -s has no symbol table)")

// section is a loaded section: its address range and contents.
type section struct {
	addr, size uint64
	data       func() ([]byte, error)
}

func reader(sections []section) func(addr, n uint64) ([]byte, error) {
	return func(addr, n uint64) ([]byte, error) {
		for _, s := range sections {
			if addr >= s.addr && addr+n <= s.addr+s.size {
				d, err := s.data()
				if err != nil {
					return nil, err
				}
				off := addr - s.addr
				if off+n > uint64(len(d)) {
					return nil, fmt.Errorf("address %#x: past the section's data", addr)
				}
				return d[off : off+n], nil
			}
		}
		return nil, fmt.Errorf("address %#x: in no section", addr)
	}
}

func elfSymbol(r io.ReaderAt, name string) (uint64, func(uint64, uint64) ([]byte, error), error) {
	f, err := elf.NewFile(r)
	if err != nil {
		return 0, nil, err
	}
	syms, err := f.Symbols()
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w", name, errNoSymbol)
	}
	var secs []section
	for _, s := range f.Sections {
		if s.Type == elf.SHT_PROGBITS && s.Addr != 0 {
			secs = append(secs, section{s.Addr, s.Size, s.Data})
		}
	}
	for _, s := range syms {
		if s.Name == name {
			return s.Value, reader(secs), nil
		}
	}
	return 0, nil, fmt.Errorf("%s: %w", name, errNoSymbol)
}

func machoSymbol(r io.ReaderAt, name string) (uint64, func(uint64, uint64) ([]byte, error), error) {
	f, err := macho.NewFile(r)
	if err != nil {
		return 0, nil, fmt.Errorf("neither ELF, PE nor Mach-O: %w", err)
	}
	if f.Symtab == nil {
		return 0, nil, fmt.Errorf("%s: %w", name, errNoSymbol)
	}
	var secs []section
	for _, s := range f.Sections {
		if s.Flags&0xff != 1 { // S_ZEROFILL (bss) has no data
			secs = append(secs, section{s.Addr, s.Size, s.Data})
		}
	}
	for _, s := range f.Symtab.Syms {
		if s.Name == name || s.Name == "_"+name {
			return s.Value, reader(secs), nil
		}
	}
	return 0, nil, fmt.Errorf("%s: %w", name, errNoSymbol)
}

func peSymbol(r io.ReaderAt, name string) (uint64, func(uint64, uint64) ([]byte, error), error) {
	f, err := pe.NewFile(r)
	if err != nil {
		return 0, nil, err
	}
	opt, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok {
		return 0, nil, errors.New("not a 64-bit PE binary")
	}
	var secs []section
	for _, s := range f.Sections {
		secs = append(secs, section{opt.ImageBase + uint64(s.VirtualAddress), uint64(s.VirtualSize), s.Data})
	}
	for _, s := range f.Symbols {
		if s.Name == name && s.SectionNumber > 0 && int(s.SectionNumber) <= len(f.Sections) {
			return secs[s.SectionNumber-1].addr + uint64(s.Value), reader(secs), nil
		}
	}
	return 0, nil, fmt.Errorf("%s: %w", name, errNoSymbol)
}
