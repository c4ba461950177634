// Package docs holds the project's documentation, as Markdown, and no code.
// Its test checks every relative link of every Markdown file of the
// repository: the file or folder it names exists, and so does the heading
// its #fragment names, by GitHub's rule for heading anchors. It imports
// nothing of the module.
package docs
