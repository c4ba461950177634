// Package yamlloc maps the values of a YAML document to the lines they
// start on, by path ("solvers[0].mode", as jsonloc names JSON's), so that
// an error about a setting can name the line a person has to fix, and
// reads the YAML decoder's errors as file:line: path: reason.
package yamlloc
