package audit

import (
	"strings"
	"testing"
)

// The secrets in these tests are made up, in each vendor's format.
func TestMaskSecrets(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"aws access key id", "aws s3 ls --profile x AKIAIOSFODNN7EXAMPLE", "aws s3 ls --profile x AKIA***"},
		{"aws session key id", "echo ASIAY34FZKBOKMUTVV7A", "echo ASIA***"},
		{"github classic token", "gh auth login ghp_16C7e42F292c6912E7710c838347Ae178B4a", "gh auth login ghp_***"},
		{"github oauth token", "x gho_16C7e42F292c6912E7710c838347Ae178B4a", "x gho_***"},
		{"github app token", "x ghs_16C7e42F292c6912E7710c838347Ae178B4a", "x ghs_***"},
		{"github fine-grained token", "x github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "x github_pat_***"},
		{"openai key", "echo sk-proj-abcdefghijklmnop1234567890XYZ", "echo sk-proj-***"},
		{"anthropic key", "echo sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789", "echo sk-ant-***"},
		{"slack token", "echo xoxb-123456789012-1234567890123-abcdefABCDEF", "echo xoxb-***"},
		{"stripe live key", "echo sk_live_4eC39HqLyjWDarjtT1zdp7dc", "echo sk_live_***"},
		{"stripe test key", "echo sk_test_4eC39HqLyjWDarjtT1zdp7dc", "echo sk_test_***"},
		{"google api key", "echo AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe", "echo AIza***"},
		{"jwt", "echo eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "echo eyJ***"},
		{"private key block", "printf '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----' > k", "printf '-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY-----' > k"},
		{"openssh private key", "echo '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----'", "echo '-----BEGIN OPENSSH PRIVATE KEY-----***-----END OPENSSH PRIVATE KEY-----'"},
		{"private key block cut short", "echo '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "echo '-----BEGIN PRIVATE KEY-----***"},
		{"bearer header", `curl -H "Authorization: Bearer abc.def-123456" https://api.example.com`, `curl -H "Authorization: Bearer ***" https://api.example.com`},
		{"basic header", `curl -H 'authorization: Basic dXNlcjpwYXNz' x`, `curl -H 'authorization: Basic ***' x`},
		{"bare bearer", `http GET x "Bearer abcdefgh12345678"`, `http GET x "Bearer ***"`},
		{"api key header", `curl -H 'X-Api-Key: 0123456789abcdef' x`, `curl -H 'X-Api-Key: ***' x`},
		{"url userinfo", "git clone https://jane:hunter2@example.com/repo.git", "git clone https://jane:***@example.com/repo.git"},
		{"url userinfo with @ in the password", "git push https://jane:p@ss@example.com/r", "git push https://jane:***@example.com/r"},
		{"url token userinfo", "git remote add o https://x-access-token:abc123@github.com/o/r", "git remote add o https://x-access-token:***@github.com/o/r"},
		{"password option", "mysql --password hunter2 -e 'select 1'", "mysql --password *** -e 'select 1'"},
		{"password option with =", "docker login --password=hunter2 r.example.com", "docker login --password=*** r.example.com"},
		{"quoted password option", `psql --password "my secret" db`, `psql --password *** db`},
		{"keytool storepass", "keytool -list -storepass changeit", "keytool -list -storepass ***"},
		{"api key option", "tool --api-key abc123 --verbose", "tool --api-key *** --verbose"},
		{"mysql attached -p", "mysql -uroot -phunter2 shop", "mysql -uroot -p*** shop"},
		{"mysqldump attached -p", "sudo mysqldump -h db -psecret1 shop > dump.sql", "sudo mysqldump -h db -p*** shop > dump.sql"},
		{"sshpass", "sshpass -p hunter2 ssh host", "sshpass -p *** ssh host"},
		{"curl user", "curl -u jane:hunter2 https://example.com", "curl -u jane:*** https://example.com"},
		{"curl user long", "curl --user 'jane:hunter2' https://example.com", "curl --user 'jane:***' https://example.com"},
		{"openssl pass:", "openssl rsa -in k.pem -passin pass:hunter2", "openssl rsa -in k.pem -passin ***"},
		{"password assignment", "PASSWORD=hunter2 ./deploy", "PASSWORD=*** ./deploy"},
		{"token assignment", "export GITHUB_TOKEN=abc123", "export GITHUB_TOKEN=***"},
		{"secret assignment quoted", `CLIENT_SECRET="a b c" make`, `CLIENT_SECRET=*** make`},
		{"single-quoted api key", `API_KEY='xyz' run`, `API_KEY=*** run`},
		{"lower-case key", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key=***"},
		{"credential assignment", "GOOGLE_APPLICATION_CREDENTIALS_JSON={x} app", "GOOGLE_APPLICATION_CREDENTIALS_JSON=*** app"},
		{"auth assignment", "NPM_AUTH=abc npm publish", "NPM_AUTH=*** npm publish"},
		{"docker -e", "docker run -e DB_PASS=hunter2 img", "docker run -e DB_PASS=*** img"},
		{"env option value", "docker run --env=API_KEY=abc img", "docker run --env=API_KEY=*** img"},
		{"query parameter", "curl 'https://x.example/a?access_token=abc123&page=2'", "curl 'https://x.example/a?access_token=***&page=2'"},
		{"npm auth token", "npm config set //registry.npmjs.org/:_authToken=npm_abc", "npm config set //registry.npmjs.org/:_authToken=***"},
		{"json key", `echo '{"password": "hunter2", "user": "jane"}'`, `echo '{"password": "***", "user": "jane"}'`},
		{"heredoc .env", "cat > .env <<EOF\nAPI_KEY=abc\nDEBUG=1\nEOF", "cat > .env <<EOF\nAPI_KEY=***\nDEBUG=1\nEOF"},
		{"escaped space in a value", `DB_PASSWORD=a\ b run`, `DB_PASSWORD=*** run`},
		{"assignment inside quotes", `env 'API_KEY=abc def' run`, `env 'API_KEY=***' run`},
		{"helm set", "helm install --set db.password=hunter2 x", "helm install --set db.password=*** x"},
		{"kubectl literal", "kubectl create secret generic x --from-literal=password=hunter2", "kubectl create secret generic x --from-literal=password=***"},
		{"form body", "curl -d 'client_secret=abc&grant_type=x' https://x", "curl -d 'client_secret=***&grant_type=x' https://x"},
		{"ini line", `echo "password = hunter2" >> conf.ini`, `echo "password = ***" >> conf.ini`},
		{"yaml line", "printf 'api_token: abc123\n' > c.yml", "printf 'api_token: ***\n' > c.yml"},
		{"git extra header", `git -c http.extraHeader="Authorization: token abc123" clone x`, `git -c http.extraHeader="Authorization: token ***" clone x`},
		{"database url", "psql postgresql://app:s3cr3t@db:5432/app", "psql postgresql://app:***@db:5432/app"},
		{"aws configure", "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG", "aws configure set aws_secret_access_key ***"},
		{"redis-cli", "redis-cli -h cache -a hunter2 ping", "redis-cli -h cache -a *** ping"},
		{"ssh-keygen passphrase", "ssh-keygen -t ed25519 -N 'a passphrase' -f k", "ssh-keygen -t ed25519 -N *** -f k"},
		{"gitlab token", "echo glpat-abcdefghijklmnopqrstu", "echo glpat-***"},
		{"npm token", "echo npm_abcdefghijklmnopqrstuvwxyz0123456789", "echo npm_***"},
		{"hugging face token", "echo hf_abcdefghijklmnopqrstuvwxyz0123456789", "echo hf_***"},
		{"vault token", "vault login hvs.CAESIJabcdefghijklmnopqrstuv", "vault login hvs.***"},
		{"token in assignment masked once", "GH_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a gh pr list", "GH_TOKEN=*** gh pr list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Mask(tt.in); got != tt.want {
				t.Errorf("Mask(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMaskLeavesOrdinaryCommandsAlone(t *testing.T) {
	for _, in := range []string{
		"git push --force origin main",
		"go test ./...",
		"rm -rf node_modules",
		"GIT_AUTHOR_NAME=Jane git commit -m wip",
		"KEYBOARD_LAYOUT=us setxkbmap",
		"PATH=/usr/local/bin:$PATH make",
		"GITHUB_TOKEN=$GITHUB_TOKEN gh pr list",
		`TOKEN="${CI_TOKEN}" ./release`,
		"mysql -u root -p shop",
		"mysql -P 3306 -h db shop",
		"docker run -u 1000:1000 img",
		"docker login --password-stdin registry.example.com",
		"tool --password-file /run/secrets/db --verbose",
		"llm --max-tokens 400 'hello'",
		"git clone ssh://git@github.com/o/r.git",
		"curl https://example.com:8443/health",
		"cat /etc/passwd",
		"pip install risk-assessment-toolkit-for-teams",
		"echo task-abcdefghijklmnopqrstuvwxyz",
		"sort -k2 -t: file",
		`jq '.author' package.json`,
		`echo '{"author": "Jane", "name": "x"}'`,
		"sed -i 's/a=1/a=2/' conf",
		"git log --author=jane",
		`git commit -m "fix: key handling"`,
		`grep -rn "token:" .`,
		"TOKEN=$(cat ~/.token) gh api",
		"echo hi --token",
		"x --password=",
		"kubectl get pods -o jsonpath='{.items[0].metadata.name}'",
		"ls -la ~/.ssh",
		"",
	} {
		if got := Mask(in); got != in {
			t.Errorf("Mask(%q) = %q; want it unchanged", in, got)
		}
	}
}

func TestMaskIsIdempotent(t *testing.T) {
	in := "PASSWORD=x curl -u a:b -H 'Authorization: Bearer abcdefgh12345' https://u:p@h/ AKIAIOSFODNN7EXAMPLE"
	once := Mask(in)
	if twice := Mask(once); twice != once {
		t.Errorf("masking twice changed %q to %q", once, twice)
	}
	for _, secret := range []string{"=x ", "a:b", "abcdefgh12345", "u:p@", "IOSFODNN7EXAMPLE"} {
		if strings.Contains(once, secret) {
			t.Errorf("%q still holds %q", once, secret)
		}
	}
}

func BenchmarkMask(b *testing.B) {
	cmd := "PASSWORD=hunter2 mysql -uroot -phunter2 -e 'select 1' && curl -H 'Authorization: Bearer abcdefgh12345' https://jane:pw@example.com/x?token=abc | jq ."
	Mask(cmd) // compile the patterns outside the loop
	b.SetBytes(int64(len(cmd)))
	for b.Loop() {
		Mask(cmd)
	}
}

// BenchmarkMaskWorstCase is the most a record's masking costs: the
// largest command it masks, dense with near misses for every scanner.
func BenchmarkMaskWorstCase(b *testing.B) {
	unit := `a: b c = d e=f --g h -i "j" k://l:m@n 'o=p' "q": "r" AKIA mysql -p `
	cmd := strings.Repeat(unit, (8<<10)/len(unit)) // twice a record's bound on its command
	Mask(cmd)
	b.SetBytes(int64(len(cmd)))
	for b.Loop() {
		Mask(cmd)
	}
}
