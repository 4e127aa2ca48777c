package hello_test

import (
	"testing"

	"github.com/airlock-dev/airlock/examples/assessor-hello/hello"
	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/assessortest"
)

func TestConformance(t *testing.T) {
	assessortest.Run(t, func(testing.TB) assessor.Assessor { return hello.Assessor{} })
}

func TestGolden(t *testing.T) {
	assessortest.RunGolden(t, hello.Assessor{}, []assessortest.Case{
		{Line: "rm -rf build", Level: assessor.High, Categories: []assessor.Category{assessor.DataDeletion}},
		{Line: "ls", Level: assessor.Low},
	})
}
