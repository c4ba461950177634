package harnesslog

// Limits bound what a read takes from one log.
type Limits struct {
	// MaxFileBytes bounds the size of a log file (an archive's compressed
	// size, a JSON log's or a JSONL file's bytes).
	MaxFileBytes int64
	// MaxEntries bounds the members of a .eval archive.
	MaxEntries int
	// MaxEntryBytes bounds one decompressed archive member, and one JSONL
	// line.
	MaxEntryBytes int64
	// MaxTotalBytes bounds the bytes decompressed from one archive.
	MaxTotalBytes int64
	// MaxSamples bounds the samples of one log.
	MaxSamples int
}

// DefaultLimits are generous for real logs (an inspect_ai sample with its
// transcript is rarely above a few MiB) and small enough for one process.
func DefaultLimits() Limits {
	return Limits{
		MaxFileBytes:  2 << 30,
		MaxEntries:    1_000_000,
		MaxEntryBytes: 256 << 20,
		MaxTotalBytes: 8 << 30,
		MaxSamples:    1_000_000,
	}
}
