// Package otheruser runs a test's check as an unprivileged user, for what
// file permissions refuse (a store in a directory that cannot be written),
// which root is never refused: not root, the check runs in the test's own
// process; as root, in a copy of the test binary started as nobody (uid
// and gid 65534), running the same test again with the check's inputs in
// its environment. Imported by tests only.
package otheruser
