// Package jsonloc maps the values of a JSON document to the lines they start
// on, by path ("items[3].cost"), so that an error about a field can name the
// line a person has to fix. It also checks a document's keys against the
// paths a format allows.
package jsonloc
