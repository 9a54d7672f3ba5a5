"""A script writer's session against the API, in Python's standard library (`urllib`) or `requests`.

Usage: python3 python_client.py urllib|requests BASE_URL LOGIN PASSWORD
Prints one JSON line per call: [step, status, body] (body parsed when it is JSON, else its text).
Each library is used the way its documentation shows: no headers beyond what it adds itself.
"""
import json
import sys


def parsed(text):
    try:
        return json.loads(text) if text else None
    except ValueError:
        return text


def report(step, status, text):
    print(json.dumps([step, status, parsed(text)]), flush=True)


def with_urllib(base, login, password):
    import http.cookiejar
    import urllib.error
    import urllib.request

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def call(step, path, method='GET', data=None, headers=None):
        request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
        try:
            with opener.open(request) as res:
                status, text = res.status, res.read().decode()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read().decode()
        report(step, status, text)
        return parsed(text)

    def json_body(body):
        return json.dumps(body).encode()

    call('login', '/api/auth/login', 'POST', json_body({'auth': login, 'password': password}), {'Content-Type': 'application/json'})
    call('user', '/api/user')
    token = call('token', '/api/user/tokens', 'POST')
    bearer = {'Authorization': 'Bearer ' + token['id']}
    project = call('project', '/api/projects', 'POST', json_body({'name': 'urllib project'}), {'Content-Type': 'application/json', **bearer})
    # data= without a Content-Type: urllib labels JSON a form; from a script it is read as JSON, as Semaphore reads it
    call('form body', '/api/projects', 'POST', json_body({'name': 'urllib unlabelled'}), bearer)
    call('delete project', '/api/project/%d' % project['id'], 'DELETE', None, bearer)
    call('deleted project', '/api/project/%d' % project['id'], 'GET', None, bearer)
    old_cookie = {'Cookie': 'semaphore=' + next(c.value for c in jar if c.name == 'semaphore')}
    call('logout', '/api/auth/logout', 'POST')
    call('user after logout', '/api/user')
    call('old cookie after logout', '/api/user', 'GET', None, old_cookie)
    call('bearer still works', '/api/user', 'GET', None, bearer)


def with_requests(base, login, password):
    import requests

    session = requests.Session()

    def call(step, method, path, **kwargs):
        res = session.request(method, base + path, **kwargs)
        report(step, res.status_code, res.text)
        return parsed(res.text)

    call('login', 'POST', '/api/auth/login', json={'auth': login, 'password': password})
    call('user', 'GET', '/api/user')
    token = call('token', 'POST', '/api/user/tokens')
    bearer = {'Authorization': 'Bearer ' + token['id']}
    project = requests.post(base + '/api/projects', json={'name': 'requests project'}, headers=bearer)
    report('project', project.status_code, project.text)
    project_id = project.json()['id']
    # data= with a dict is a real form body: no JSON, so a 400
    form = requests.post(base + '/api/projects', data={'name': 'requests form'}, headers=bearer)
    report('form body', form.status_code, form.text)
    gone = requests.delete(base + '/api/project/%d' % project_id, headers=bearer)
    report('delete project', gone.status_code, gone.text)
    again = requests.get(base + '/api/project/%d' % project_id, headers=bearer)
    report('deleted project', again.status_code, again.text)
    old_cookie = {'Cookie': 'semaphore=' + session.cookies['semaphore']}
    call('logout', 'POST', '/api/auth/logout')
    call('user after logout', 'GET', '/api/user')
    replay = requests.get(base + '/api/user', headers=old_cookie)
    report('old cookie after logout', replay.status_code, replay.text)
    still = requests.get(base + '/api/user', headers=bearer)
    report('bearer still works', still.status_code, still.text)


if __name__ == '__main__':
    library, base, login, password = sys.argv[1:5]
    (with_urllib if library == 'urllib' else with_requests)(base, login, password)
