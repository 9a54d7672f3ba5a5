/** The callback's name and the variable naming the file it writes. */
export const FACTS_CALLBACK_NAME = 'signalbox_facts';
export const FACTS_FILE_VAR = 'SIGNALBOX_FACTS_FILE';

/**
 * The `signalbox_facts` callback plugin: keeps, per inventory host, a few facts from the results
 * of fact gathering (`setup` / `gather_facts`, not delegated) and writes them as one JSON object
 * into SIGNALBOX_FACTS_FILE when the run ends. It needs no enabling, so a playbook's own
 * `callbacks_enabled` stays as it is; hosts whose facts were not gathered are not in the file.
 */
export const ANSIBLE_FACTS_CALLBACK = `# -*- coding: utf-8 -*-
from __future__ import annotations
import json
import os
from ansible.plugins.callback import CallbackBase

DOCUMENTATION = '''
    name: ${FACTS_CALLBACK_NAME}
    type: aggregate
    short_description: writes gathered host facts to ${FACTS_FILE_VAR}
    description:
      - Keeps the distribution, its version, the default IPv4 address and the hostname of every host whose facts were gathered.
'''

GATHERING = ('setup', 'gather_facts')
KEPT = {
    'distribution': ('ansible_distribution',),
    'distribution_version': ('ansible_distribution_version',),
    'ipv4': ('ansible_default_ipv4', 'address'),
    'hostname': ('ansible_hostname',),
}


def pick(facts, path):
    value = facts
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value if isinstance(value, str) and value else None


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = '${FACTS_CALLBACK_NAME}'
    CALLBACK_NEEDS_ENABLED = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.hosts = {}

    def v2_runner_on_ok(self, result):
        action = (getattr(result._task, 'action', '') or '').split('.')[-1]
        data = result._result if isinstance(result._result, dict) else {}
        if action not in GATHERING or data.get('_ansible_delegated_vars'):
            return
        facts = data.get('ansible_facts')
        if not isinstance(facts, dict):
            return
        kept = {name: pick(facts, path) for name, path in KEPT.items()}
        kept = {name: value for name, value in kept.items() if value is not None}
        if kept:
            self.hosts.setdefault(result._host.get_name(), {}).update(kept)

    def v2_playbook_on_stats(self, stats):
        path = os.environ.get('${FACTS_FILE_VAR}')
        if not path or not self.hosts:
            return
        with open(path, 'w') as handle:
            json.dump(self.hosts, handle)
`;
