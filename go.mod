module github.com/condense-dev/condense

go 1.26
