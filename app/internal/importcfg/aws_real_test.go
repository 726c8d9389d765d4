//go:build !js

package importcfg

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/config"
)

// A file with its profile's section twice, or a key given twice, reads as aws-sdk-go-v2
// (pinned in go.mod) reads it: its LoadDefaultConfig, with no other source of settings, makes
// the import's number of attempts.
func TestReadAWSAsTheGoSDK(t *testing.T) {
	for _, text := range []string{
		"[default]\nretry_mode = standard\nmax_attempts = 2\n\n[profile dev]\nmax_attempts = 9\n[default]\nmax_attempts = 7\n",
		"[default]\nretry_mode = standard\nmax_attempts = 2\n[default]\nretry_mode = standard\n",
		"[default]\nretry_mode = standard\nmax_attempts = 3\nmax_attempts = 5\n",
		"# aws-sdk-go-v2 v1.48.0 and later (Retry Behavior 2.1)\n[default]\nmax_attempts = 4\n[default]\nmax_attempts = 6\n",
	} {
		file := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		for k, v := range map[string]string{"AWS_CONFIG_FILE": file, "AWS_SHARED_CREDENTIALS_FILE": file, "AWS_PROFILE": "default",
			"AWS_REGION": "us-east-1", "AWS_RETRY_MODE": "", "AWS_MAX_ATTEMPTS": "", "AWS_EC2_METADATA_DISABLED": "true"} {
			t.Setenv(k, v)
		}
		cfg, err := config.LoadDefaultConfig(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		res, err := Read(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := res.Values.Get("attempts"); got != strconv.Itoa(cfg.RetryMaxAttempts) {
			t.Errorf("%q: the import reads attempts=%s, aws-sdk-go-v2 %d", text, got, cfg.RetryMaxAttempts)
		}
	}
}
