// Package jsonloc maps the values of a JSON document to the lines they start
// on, by path ("items[3].cost"), so that an error about a field can name the
// line a person has to fix. It also checks a document's keys against the
// paths a format allows, finds what encoding/json would read silently
// (Oddities: repeated keys, null elements) and splits an object into its
// members (Members). Each reads the document in one pass with the package's
// own scanner, which does not validate: decoding a document with
// encoding/json says what is wrong with it, and these run on documents that
// decoded.
package jsonloc
