package ojson

import (
	"errors"
	"fmt"
)

// errAliasing is the error of a YAML document whose aliases stand for more
// nodes than its alias budget (see aliasBudget): a billion laughs.
var errAliasing = errors.New("the document's aliases expand it too much")

// errTooDeep is what decodeJSONValue returns past maxDepth; DecodeJSON
// places it.
var errTooDeep = fmt.Errorf("nested more than %d deep", maxDepth)
