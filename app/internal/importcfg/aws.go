package importcfg

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/limiter"
)

// The AWS shared config file (~/.aws/config), as botocore (configloader.py, on configparser)
// and aws-sdk-go-v2 (internal/ini) read it: [default] or [profile NAME] sections of
// key = value lines, comments on lines of their own (# or ;), indented lines continuing a
// key's nested settings. Of a profile it reads retry_mode and max_attempts; the waits are
// the SDK's, which the file cannot name: a comment as the Export panel writes it first picks
// the SDK, else botocore's (the AWS CLI's) without AWS_NEW_RETRIES_2026.
var awsFormat = format{name: "AWS shared config (~/.aws/config)", read: readAWS}

// iniSpace is what the INI readers trim around a section's name, a key and a value.
const iniSpace = " \t\n\f\r" // RE2's \s, which they matched before

// iniSection is the name of a section header line ([ profile a ] is "profile a"); ok is false
// for any other line. iniPair is a key = value line's key and value. Both are a line's own
// work, without a regular expression: a file is up to 16,000 lines, and in the page's wasm a
// match per line took most of a second.
func iniSection(t string) (name string, ok bool) {
	inner, ok := strings.CutPrefix(t, "[")
	if inner, ok = strings.CutSuffix(inner, "]"); !ok || strings.Contains(inner, "]") {
		return "", false
	}
	return strings.Trim(inner, iniSpace), true
}

func iniPair(t string) (key, value string, ok bool) {
	key, value, ok = strings.Cut(t, "=")
	key = strings.TrimRight(key, iniSpace)
	if !ok || key == "" || strings.ContainsRune(iniSpace, rune(key[0])) {
		return "", "", false
	}
	return key, strings.Trim(value, iniSpace), true
}

// iniLine is one key = value of a profile.
type iniLine struct {
	line       int
	key, value string
}

// iniProfile is one section: its name as written and its keys.
type iniProfile struct {
	line  int
	name  string
	pairs []iniLine
}

// parseINI splits text into sections; ok is false when text is not an INI file (its first
// line that is no comment is no section header).
func parseINI(text string) (profiles []iniProfile, comments []string, ok bool, err error) {
	n := 0
	for line := range strings.Lines(text) {
		n++
		t := strings.TrimSpace(line)
		name, section := iniSection(t)
		switch {
		case t == "":
		case strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";"):
			comments = append(comments, t)
		case section:
			profiles = append(profiles, iniProfile{line: n, name: name})
		case len(profiles) == 0:
			return nil, nil, false, nil
		case line[0] == ' ' || line[0] == '\t':
			// A nested setting of the key above (s3 =, then indented lines): not about retries.
		default:
			key, value, ok := iniPair(t)
			if !ok {
				return nil, nil, true, fmt.Errorf("line %d: %s: not a key = value line", n, quoteShort(t))
			}
			p := &profiles[len(profiles)-1]
			p.pairs = append(p.pairs, iniLine{n, key, value})
		}
	}
	return profiles, comments, len(profiles) > 0, nil
}

// profileName is a section's profile: "default" of [default], NAME of [profile NAME]; ok is
// false for the sections that are no profile ([sso-session x], [services x]).
func profileName(section string) (string, bool) {
	if name, ok := strings.CutPrefix(section, "profile "); ok {
		return strings.TrimSpace(name), true
	}
	return section, !strings.Contains(section, " ")
}

func readAWS(text string) (Result, bool, error) {
	profiles, comments, ok, err := parseINI(text)
	if !ok || err != nil {
		return Result{}, ok, err
	}
	r := newReading()
	preset := awsPreset(r, comments)
	var chosen *iniProfile
	for i := range profiles {
		if name, ok := profileName(profiles[i].name); ok && name == "default" {
			chosen = &profiles[i]
			break
		}
	}
	for i := range profiles {
		if _, ok := profileName(profiles[i].name); ok && chosen == nil {
			chosen = &profiles[i]
			break
		}
	}
	if chosen == nil {
		return Result{}, true, fmt.Errorf("line %d: [%s]: no profile ([default] or [profile NAME]) in the file", profiles[0].line, quoteName(profiles[0].name))
	}
	name, _ := profileName(chosen.name)
	which := "the default profile"
	if name != "default" {
		which = "the file has no [default]: its first profile"
	}
	r.note("line %d: [%s]: the profile read (%s)", chosen.line, quoteName(chosen.name), which)
	// The same section again is more of the same profile: aws-sdk-go-v2 reads the keys of both
	// (a key in each, the last), where botocore refuses the file. It was skipped as another
	// profile, and its max_attempts with it.
	merged := *chosen
	merged.pairs = slices.Clone(chosen.pairs)
	for i := range profiles {
		switch p := &profiles[i]; {
		case p == chosen:
		case p.name == chosen.name:
			r.note("line %d: [%s] again (also line %d): its keys are read as the same profile's, as aws-sdk-go-v2 does; botocore refuses a section given twice (DuplicateSectionError)",
				p.line, quoteName(p.name), chosen.line)
			merged.pairs = append(merged.pairs, p.pairs...)
		default:
			r.skip("line %d: [%s]: only one profile is read ([%s])", p.line, quoteName(p.name), quoteName(chosen.name))
		}
	}
	chosen = &merged

	var c libs.AWSRetryConfig
	var modeLine, attemptsLine *iniLine
	// A key given twice: the last is read, and the note says so, as botocore's configparser
	// (strict, its default) refuses such a file whole.
	twice := func(was, l *iniLine) {
		if was != nil {
			r.note("line %d: %s given again (also line %d): the last is read; botocore refuses a key given twice in a profile (ConfigParseError)", l.line, quoteKey(l.key), was.line)
		}
	}
	for i := range chosen.pairs {
		switch l := &chosen.pairs[i]; strings.ToLower(l.key) {
		case "retry_mode":
			twice(modeLine, l)
			modeLine = l
		case "max_attempts":
			twice(attemptsLine, l)
			attemptsLine = l
		default:
			r.skip("line %d: %s: not about retries", l.line, quoteKey(l.key))
		}
	}
	mode := defaultMode(preset)
	if modeLine != nil {
		mode = strings.ToLower(modeLine.value)
		r.note("line %d: retry_mode %s", modeLine.line, quoteShort(modeLine.value))
	}
	switch mode {
	case "standard":
	case "adaptive":
		r.note("line %d: retry_mode adaptive: the standard mode's waits and quota; its client-side rate limiter on throttling errors is not modelled", modeLine.line)
	case "legacy":
		where := fmt.Sprintf("line %d: [%s]: no retry_mode: %s's default is legacy", chosen.line, quoteName(chosen.name), preset)
		if modeLine != nil {
			where = fmt.Sprintf("line %d: retry_mode %s", modeLine.line, quoteShort(modeLine.value))
		}
		return Result{}, true, fmt.Errorf("%s: the legacy mode's waits are not modelled here: set retry_mode = standard", where)
	default:
		return Result{}, true, fmt.Errorf("line %d: retry_mode %s: must be standard, adaptive or legacy", modeLine.line, quoteShort(modeLine.value))
	}
	c.RetryMode = mode
	pr, _ := libs.PresetByName(preset)
	c.MaxAttempts = pr.Params.Attempts
	if attemptsLine != nil {
		v := &value{line: attemptsLine.line, key: attemptsLine.key, text: attemptsLine.value, kind: yaml.ScalarNode}
		n, err := whole(v, 1, 1<<31-1)
		if err != nil {
			return Result{}, true, err
		}
		c.MaxAttempts = n
		r.source("attempts", v)
	} else {
		r.note("no max_attempts: the SDK's default, %d attempts", c.MaxAttempts)
	}
	pol, _ := c.Policy(preset)
	r.setPolicy(pol)
	r.p.Limiter = limiter.AWS
	if strings.HasSuffix(preset, "-2026") {
		r.p.Limiter = limiter.AWS2026
	}
	r.also("limiter")
	r.note("the waits are the SDK's (preset %s: %s): the file sets only the mode and the attempts; its retry quota → limiter=%s", preset, pr.Theirs, r.p.Limiter)
	res, err := r.result()
	return res, true, err
}

// awsPreset is the AWS preset whose SDK a comment names, as the Export panel's first comment
// does, else botocore's without AWS_NEW_RETRIES_2026.
func awsPreset(r *reading, comments []string) string {
	presets, headers := libs.AWSConfigPresets()
	for _, c := range comments {
		for i, h := range headers {
			if c == h {
				r.note("the comment %q names the SDK: preset %s", c, presets[i])
				return presets[i]
			}
		}
	}
	r.note("the file does not say which SDK reads it: botocore's waits (the AWS CLI, Python) without AWS_NEW_RETRIES_2026, preset aws-botocore; a first comment as the Export panel writes it names another")
	return "aws-botocore"
}

// defaultMode is the retry mode of the preset's SDK when the file sets none: legacy for
// botocore without AWS_NEW_RETRIES_2026, standard for the others.
func defaultMode(preset string) string {
	if preset == "aws-botocore" {
		return "legacy"
	}
	return "standard"
}
